# COST of eight_server_tests' longest cases, set after their discovery as
# ../test_costs.cmake says.
foreach(cost_and_name
    "60;a client that leaves cancels its 4x4 search and frees the compute thread"
    "45;--pdb-dir: the server answers at once, builds the file in the background, gives it its name only whole, switches it in, keeps it on SIGHUP and serves it after a restart unbuilt"
    "43;--pdb-dir: a corrupt file there is logged and built again"
    "32;--pdb-dir: two servers sharing the folder build the file once"
    "13;slow 2x5 draws pipelined on two connections leave a fresh 3x3 client answered at once"
    "10;concurrent 5x5 answers, many times the compute threads, hold at most a beam's memory per thread, over waves of them")
  list(GET cost_and_name 0 cost)
  list(GET cost_and_name 1 name)
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endforeach()
