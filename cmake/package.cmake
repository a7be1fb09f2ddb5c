# The Debian package (make deb: cpack -G DEB in the build folder):
# eight_VERSION_amd64.deb with the runtime component of cmake/install.cmake
# (programs, the default table, man pages, the systemd units, bash
# completion, the copyright file, /etc/default/eight-server as a conffile),
# installed under /usr. Its Depends line is not written here: dpkg-shlibdeps
# finds it from the binaries' shared libraries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME eight)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exact, instant answers for sliding puzzles")
set(CPACK_PACKAGE_CONTACT "The eight maintainers <maintainers@users.noreply.a-seed-ba568067.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# The runtime component alone, as one package named eight (the development
# component, headers and libraries, is for `cmake --install`).
set(CPACK_COMPONENTS_ALL runtime)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # eight_1.0.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "systemd")
# The Python module (`import eight`, in /usr/lib/python3/dist-packages) needs
# Debian's python3 of the version it was built for, and NumPy; the tool and
# the server need neither, so a server installed without recommends stays
# without them.
if(TARGET eight_python)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${EIGHT_PYTHON_DEB_RECOMMENDS}")
endif()
# The long description (CPack puts the summary above it and indents it).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "eight answers the fewest moves, a best move and random boards at a given
distance for sliding puzzles: every rectangle up to 10 cells exactly, from
precomputed, checksummed tables (3x4, 2x6 and their turns from tables it
writes on request), the 15-puzzle (4x4) optimally by search over pattern
databases, and every other board up to 10x10 with a proven lower bound.

This package holds eight (the offline tool), eight-tablegen (writes the
tables), eight-server (the HTTP service, with a sandboxed systemd unit and
socket activation), the default table of every shape up to 10 cells, and
the Python module (import eight; with python3 and python3-numpy).")

set(eight_deb_control ${CMAKE_BINARY_DIR}/debian-control)
file(MAKE_DIRECTORY ${eight_deb_control})
file(WRITE ${eight_deb_control}/conffiles "/etc/default/eight-server\n")
foreach(script postinst prerm postrm)
  file(COPY ${PROJECT_SOURCE_DIR}/deploy/debian/${script} DESTINATION ${eight_deb_control}
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
endforeach()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${eight_deb_control}/conffiles ${eight_deb_control}/postinst
  ${eight_deb_control}/prerm ${eight_deb_control}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

include(CPack)
