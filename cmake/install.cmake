# Install rules (INCORE_INSTALL, on at top level): GNUInstallDirs layout,
#   lib/libincore.a, lib/libincore.so.X.Y.Z (SONAME libincore.so.X),
#   include/incore/*.h (with the generated version.h),
#   lib/pkgconfig/incore.pc, lib/cmake/incore/ (find_package(incore CONFIG):
#   incore::incore, the shared library, and incore::incore_static).
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
# 0.x: a new minor version may change the ABI (as the SONAME's major does
# from 1.0 on), so a request for 0.1 is not met by 0.2.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(IC_COMPAT SameMinorVersion)
else()
  set(IC_COMPAT SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/incoreConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${IC_COMPAT})
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
