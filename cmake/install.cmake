# What `cmake --install` puts where (docs/deployment.md, "Install rules"):
#
#   component runtime       bin/eight, bin/eight-tablegen, bin/eight-server;
#                           lib/eight/eight-remote.so (LIBDIR/eight: eight's
#                           --server and fetch, loaded only for them);
#                           share/eight/eight.tbl (generated at build time);
#                           share/man/man1, man8; share/doc/eight/copyright;
#                           share/bash-completion/completions/eight; the
#                           systemd units and etc/default/eight-server
#   component development   include/eight/*.h; lib/libeight.a, libeight.so*;
#                           libeight-c.so* (the C API, include/eight/c.h);
#                           lib/cmake/eight (find_package(eight CONFIG):
#                           eight::core, eight::core_static, eight::c);
#                           lib/pkgconfig/eight.pc, eight-c.pc
#
# The Debian package (cmake/package.cmake) holds the runtime component.
include(CMakePackageConfigHelpers)

# ------------------------------------------------------------------ the table
# Generated into the build tree by the eight-tablegen just built, never
# committed: proved by `eight verify` under a temporary name before the
# rename, so a failed run leaves no table behind for the next build to take
# as done.
set(EIGHT_BUILD_TABLE ${CMAKE_BINARY_DIR}/share/eight/eight.tbl)
if(EIGHT_TABLES_FROM)
  # That tree's table, proved there (top-level CMakeLists.txt).
  eight_require_table_from(share/eight/eight.tbl)
  add_custom_command(
    OUTPUT ${EIGHT_BUILD_TABLE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/eight
    COMMAND ${CMAKE_COMMAND} -E copy ${EIGHT_TABLES_FROM}/share/eight/eight.tbl
            ${EIGHT_BUILD_TABLE}.new
    COMMAND ${CMAKE_COMMAND} -E rename ${EIGHT_BUILD_TABLE}.new ${EIGHT_BUILD_TABLE}
    DEPENDS ${EIGHT_TABLES_FROM}/share/eight/eight.tbl
    COMMENT "Copying the default table from ${EIGHT_TABLES_FROM} (EIGHT_TABLES_FROM)"
    VERBATIM)
else()
  add_custom_command(
    OUTPUT ${EIGHT_BUILD_TABLE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/eight
    COMMAND eight-tablegen --quiet --shape default --out ${EIGHT_BUILD_TABLE}.new
    COMMAND eight verify ${EIGHT_BUILD_TABLE}.new
    COMMAND ${CMAKE_COMMAND} -E rename ${EIGHT_BUILD_TABLE}.new ${EIGHT_BUILD_TABLE}
    DEPENDS eight-tablegen eight
    COMMENT "Generating the default table (eight-tablegen --shape default) for install"
    VERBATIM)
endif()
add_custom_target(eight_table ALL DEPENDS ${EIGHT_BUILD_TABLE})

# ------------------------------------------------------------------ runtime
set(eight_programs eight eight-tablegen)
if(TARGET eight-server)
  list(APPEND eight_programs eight-server)
endif()
install(TARGETS ${eight_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
# eight finds its module at the same path from BINDIR as in the build tree
# (cli/CMakeLists.txt): LIBDIR/eight/eight-remote.so.
install(TARGETS eight-remote LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/eight COMPONENT runtime)
install(FILES ${EIGHT_BUILD_TABLE} DESTINATION ${CMAKE_INSTALL_DATADIR}/eight
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ COMPONENT runtime)
# The Python module (python/), where Debian's python3 finds it: its
# extension is built for that python3 (its ABI in the file's name), so only
# where it is Debian's (the .deb; `pip install ./python` for any other).
if(TARGET eight_python)
  install(FILES ${CMAKE_BINARY_DIR}/python/eight/__init__.py ${CMAKE_BINARY_DIR}/python/eight/_eight.pyi
                ${CMAKE_BINARY_DIR}/python/eight/py.typed
          DESTINATION lib/python3/dist-packages/eight COMPONENT runtime)
  install(TARGETS eight_python LIBRARY DESTINATION lib/python3/dist-packages/eight COMPONENT runtime)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/deploy/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/bash-completion/eight
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT runtime)
# The units name the installed programs and table by their full paths, and
# /etc is /etc only for the /usr prefix: both are known at install time
# (CPack installs with its own prefix), so a script writes them then.
if(TARGET eight-server)
  install(CODE "set(EIGHT_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")
set(EIGHT_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
set(EIGHT_DATADIR \"${CMAKE_INSTALL_DATADIR}\")
set(EIGHT_WORK_DIR \"${CMAKE_BINARY_DIR}/install-units\")" COMPONENT runtime)
  install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/install_units.cmake COMPONENT runtime)
endif()

# ------------------------------------------------------------------ development
# Every header of include/eight/, by glob: that folder holds the library a
# user links and nothing else. The programs' plumbing (common/include/) and
# the JSON answers (json/include/) live elsewhere and are not installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/eight DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT development FILES_MATCHING PATTERN "*.h")
install(TARGETS eight_core_shared EXPORT eight-targets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
                NAMELINK_COMPONENT development)
if(TARGET eight_c_shared)
  install(TARGETS eight_c_shared EXPORT eight-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
                  NAMELINK_COMPONENT development)
endif()
install(TARGETS eight_core EXPORT eight-static-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
set(eight_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/eight)
install(EXPORT eight-targets NAMESPACE eight:: DESTINATION ${eight_cmake_dir}
        COMPONENT development)
install(EXPORT eight-static-targets NAMESPACE eight:: DESTINATION ${eight_cmake_dir}
        COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/eight-config.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/eight-config.cmake INSTALL_DESTINATION ${eight_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/eight-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/eight-config.cmake
              ${CMAKE_BINARY_DIR}/cmake/eight-config-version.cmake
        DESTINATION ${eight_cmake_dir} COMPONENT development)
# eight.pc: paths relative to the .pc file's own place (pcfiledir), so the
# file stays right wherever the prefix is installed or moved.
file(RELATIVE_PATH eight_pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${PROJECT_SOURCE_DIR}/cmake/eight.pc.in ${CMAKE_BINARY_DIR}/cmake/eight.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/eight.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)
if(TARGET eight_c_shared)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/eight-c.pc.in ${CMAKE_BINARY_DIR}/cmake/eight-c.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/cmake/eight-c.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT development)
endif()
