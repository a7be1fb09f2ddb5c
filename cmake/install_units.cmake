# Run by `cmake --install` (and CPack), after install(CODE) has set
# EIGHT_SOURCE_DIR, EIGHT_BINDIR, EIGHT_DATADIR (relative to the prefix) and
# EIGHT_WORK_DIR: writes the systemd units with the programs' and the table
# folder's full paths under the prefix of this install, and installs them
# with etc/default/eight-server.
#
# For the prefix /usr (the Debian package) the units go to /lib/systemd/system
# and the configuration to /etc, as Debian 12's own packages have them;
# under any other prefix both stay inside it (PREFIX/lib/systemd/system,
# PREFIX/etc), so installing into a folder never writes outside it.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(unit_dir /lib/systemd/system)
  set(etc_dir /etc)
else()
  set(unit_dir ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
  set(etc_dir ${CMAKE_INSTALL_PREFIX}/etc)
endif()
set(EIGHT_SERVER ${CMAKE_INSTALL_PREFIX}/${EIGHT_BINDIR}/eight-server)
set(EIGHT_TABLES_DIR ${CMAKE_INSTALL_PREFIX}/${EIGHT_DATADIR}/eight)
set(EIGHT_ETC_DEFAULT ${etc_dir}/default/eight-server)
foreach(unit eight-server.service eight-server.socket)
  configure_file(${EIGHT_SOURCE_DIR}/deploy/systemd/${unit}.in ${EIGHT_WORK_DIR}/${unit} @ONLY)
endforeach()
file(INSTALL ${EIGHT_WORK_DIR}/eight-server.service ${EIGHT_WORK_DIR}/eight-server.socket
     DESTINATION ${unit_dir} FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
file(MAKE_DIRECTORY ${EIGHT_WORK_DIR}/default)
file(COPY_FILE ${EIGHT_SOURCE_DIR}/deploy/debian/eight-server.default
     ${EIGHT_WORK_DIR}/default/eight-server ONLY_IF_DIFFERENT)
file(INSTALL ${EIGHT_WORK_DIR}/default/eight-server DESTINATION ${etc_dir}/default
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
