# COST of eight_tests' longest cases (doctest_discover_tests adds them when
# ctest runs, so their properties are set here, in a file ctest includes
# after the discovered tests; CMakeLists.txt says why COST matters). The
# seconds are a release build's with ctest -j4 beside other work, rounded;
# only their order counts. A name not found is ignored: keep these in step
# with the test names.
foreach(cost_and_name
    "140;pattern databases of 2x7, 3x5 and 2x8 are admissible and the search optimal on every board within 20 moves"
    "70;grid shapes are answered optimally near the goal, and with a bound far from it (37 to 64 cells)"
    "50;grid shapes are answered optimally near the goal, and with a bound far from it (65 to 100 cells)"
    "35;grid shapes are answered optimally near the goal, and with a bound far from it (13 to 36 cells)"
    "80;a transposed or turned pattern-shape question is answered through the kept databases"
    "60;following hints from any board of a grid shape reaches the goal without cycling"
    "60;past 25 cells the default answer is the beam's (past 64 over the reduction's last region), legal and shorter than the reduction's, on seeded 6x6, 7x7, 8x8, 10x10, 5x10, 4x7 and 9x3 boards"
    "55;skipping forbidden paths keeps every board's first shortest path, on every edge"
    "50;the mod-3 table holds every position's naive distance % 3 and descent walks a legal shortest path from each: 2x3, 2x4, 3x3 (corner, edge, centre), 2x5"
    "45;far from the goal, the pattern-database search agrees with the search over linear conflicts alone"
    "45;the JSON text is exactly what a JSON library writes, for every position of every goal"
    "30;the grid IDA*'s own heuristic is manhattan_linear_conflict on every shape"
    "25;following the beam search's hints from far boards reaches the goal without cycling"
    "20;following hints with the rest of the path shown, the distance goes down at every step, on every shape up to 25 cells"
    "25;uniformly random 2x7 and 3x5 boards: the default set and another partition find paths of one length"
    "16;a resealed pattern database with two entries swapped passes the full check, not verify"
    "16;every section's histogram up to 10 cells is the naive search's, whatever the blank")
  list(GET cost_and_name 0 cost)
  list(GET cost_and_name 1 name)
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endforeach()
