include(GoogleTest)
find_package(GTest REQUIRED)

# How ctest runs the Google Test executables. OFF (the default): one ctest test per test case,
# found when ctest starts (`ctest -R BundleRoundTrip` runs one). ON (what scripts/run-tests.sh,
# so CI, uses): each executable runs as SHARDS processes (tests/support/gtest-shard.sh), each
# running whole test suites one after another, so a suite's fixture is set up once. Under ASan
# a test process costs about a second of CPU before its first case (the sanitizer's shadow
# memory, Qt, fonts), which for 1,600 cases was a third of CI's test time.
option(STRATA_TEST_SHARDING "run each test executable as a few shards instead of one process per test case" OFF)

# strata_add_test(name [QT] [GUI] SOURCES ... LIBS ... [LABELS ...] [SHARDS n] [PROPERTIES ...])
#   QT:  link the Qt test main (QCoreApplication) from tests/support
#   GUI: link the QApplication test main instead (offscreen)
#   SHARDS: processes with STRATA_TEST_SHARDING (default 2); more for executables with long cases,
#           so that ctest -j keeps both cores busy until the end
#   PROPERTIES: extra ctest properties for every discovered test (e.g. FIXTURES_REQUIRED rgw)
#   WHOLE_SUITES: test suites whose cases share one expensive SetUpTestSuite() (a whole demo
#           estate booted once): each runs as one ctest test named after the suite, so the setup
#           runs once instead of once per case (a failing case is named in that test's output)
function(strata_add_test name)
    cmake_parse_arguments(ARG "QT;GUI" "SHARDS" "SOURCES;LIBS;LABELS;PROPERTIES;WHOLE_SUITES" ${ARGN})
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
    if(NOT STRATA_TEST_SHARDING)
        set(filter)
        if(ARG_WHOLE_SUITES)
            list(TRANSFORM ARG_WHOLE_SUITES APPEND ".*" OUTPUT_VARIABLE whole)
            list(JOIN whole ":" whole)
            set(filter TEST_FILTER "-${whole}")
            foreach(suite IN LISTS ARG_WHOLE_SUITES)
                add_test(NAME ${suite} COMMAND ${name} --gtest_filter=${suite}.*)
                # Started early: one of them is as long as a dozen ordinary cases.
                set_tests_properties(${suite} PROPERTIES ${ARG_PROPERTIES} LABELS "${ARG_LABELS}"
                    ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
                # A renamed suite would match no case and pass: that fails instead.
                set_tests_properties(${suite} PROPERTIES COST 400 FAIL_REGULAR_EXPRESSION "Running 0 tests")
            endforeach()
        endif()
        gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 ${filter}
            PROPERTIES ${ARG_PROPERTIES} ENVIRONMENT "QT_QPA_PLATFORM=offscreen" LABELS "${ARG_LABELS}")
        return()
    endif()
    if(NOT ARG_SHARDS)
        set(ARG_SHARDS 2)
    endif()
    math(EXPR last "${ARG_SHARDS} - 1")
    foreach(index RANGE ${last})
        set(shard ${name}_shard${index}of${ARG_SHARDS})
        add_test(NAME ${shard} COMMAND ${PROJECT_SOURCE_DIR}/tests/support/gtest-shard.sh $<TARGET_FILE:${name}>
                                       ${index} ${ARG_SHARDS})
        # A shard runs many cases: a hang is still cut off, but not by the one-case timeout.
        set_tests_properties(${shard} PROPERTIES ${ARG_PROPERTIES} LABELS "${ARG_LABELS}" TIMEOUT 1800
            ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
    endforeach()
endfunction()
