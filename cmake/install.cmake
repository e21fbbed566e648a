# Install rules (INCORE_INSTALL, on at top level): GNUInstallDirs layout,
#   lib/libincore.a, lib/libincore.so.X.Y.Z (SONAME libincore.so.X),
#   include/incore/*.h (with the generated version.h),
#   lib/pkgconfig/incore.pc, lib/cmake/incore/ (find_package(incore CONFIG):
#   incore::incore, the shared library, and incore::incore_static),
#   share/doc/incore/ (README, CHANGELOG, LICENSE, SECURITY, examples/).
# The command, its plot script and the man pages are installed where they
# are built (top-level CMakeLists.txt, docs/man).
include(CMakePackageConfigHelpers)

install(TARGETS incore_static incore_shared EXPORT incoreTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/incore DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/incore/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/incore)

set(IC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/incore)
install(EXPORT incoreTargets NAMESPACE incore:: DESTINATION ${IC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/incoreConfig.cmake.in
  ${PROJECT_BINARY_DIR}/incoreConfig.cmake INSTALL_DESTINATION ${IC_CMAKE_DIR})
# The ABI policy of README.md: the major version (and the SONAME,
# libincore.so.MAJOR) changes with every incompatible change, a minor version
# only adds.  So find_package(incore 1.0) accepts 1.0 and any later 1.x, and
# never 0.x or 2.x.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/incoreConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/incoreConfig.cmake ${PROJECT_BINARY_DIR}/incoreConfigVersion.cmake
        DESTINATION ${IC_CMAKE_DIR})

# incore.pc finds its prefix from its own place (${pcfiledir}), so it stays
# right for `cmake --install --prefix DIR` and for a moved install.
set(IC_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${IC_PC_DIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(IC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH IC_PC_UP /prefix/${IC_PC_DIR} /prefix)
  string(REGEX REPLACE "/$" "" IC_PC_UP "${IC_PC_UP}")
  set(IC_PC_PREFIX "\${pcfiledir}/${IC_PC_UP}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/incore.pc.in ${PROJECT_BINARY_DIR}/incore.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/incore.pc DESTINATION ${IC_PC_DIR})

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/SECURITY.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The example programs as a project of their own (examples/README.md),
# built by `cmake -S share/doc/incore/examples` against this install.
install(FILES ${PROJECT_SOURCE_DIR}/examples/CMakeLists.txt ${PROJECT_SOURCE_DIR}/examples/README.md
              ${PROJECT_SOURCE_DIR}/examples/seal_file.c ${PROJECT_SOURCE_DIR}/examples/hash_file.c
              ${PROJECT_SOURCE_DIR}/examples/crc_stream.c
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
