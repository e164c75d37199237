include(GoogleTest)
find_package(GTest REQUIRED)

# strata_add_test(name [QT] [GUI] SOURCES ... LIBS ... [LABELS ...] [PROPERTIES ...])
#   QT:  link the Qt test main (QCoreApplication) from tests/support
#   GUI: link the QApplication test main instead (offscreen)
#   PROPERTIES: extra ctest properties for every discovered test (e.g. FIXTURES_REQUIRED rgw)
function(strata_add_test name)
    cmake_parse_arguments(ARG "QT;GUI" "" "SOURCES;LIBS;LABELS;PROPERTIES" ${ARGN})
    if(NOT ARG_SOURCES)
        return()
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} strata::testsupport GTest::gtest GTest::gmock)
    if(ARG_GUI)
        target_link_libraries(${name} PRIVATE strata_testmain_gui)
    elseif(ARG_QT)
        target_link_libraries(${name} PRIVATE strata_testmain_qt)
    else()
        target_link_libraries(${name} PRIVATE GTest::gtest_main)
    endif()
    target_compile_definitions(${name} PRIVATE
        STRATA_FIXTURES_DIR="${PROJECT_SOURCE_DIR}/tests/fixtures"
        STRATA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        STRATA_BINARY_DIR="${PROJECT_BINARY_DIR}"
        $<$<BOOL:${STRATA_BUILD_DESKTOP}>:STRATA_HAVE_DESKTOP=1>)
    # PRE_TEST discovery keeps sanitizer builds from running test binaries at build time.
    # The properties are flattened into name/value pairs, so a value may not contain ';': one
    # ENVIRONMENT entry only (a second one shifted every later pair and dropped LABELS).
    gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
        PROPERTIES ${ARG_PROPERTIES} ENVIRONMENT "QT_QPA_PLATFORM=offscreen" LABELS "${ARG_LABELS}")
endfunction()
