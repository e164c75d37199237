# Warnings, Qt strictness definitions and sanitizers shared by every Strata target.

add_library(strata_compile_options INTERFACE)
target_compile_options(strata_compile_options INTERFACE -Wall -Wextra -Wpedantic)
if(STRATA_WERROR)
    target_compile_options(strata_compile_options INTERFACE -Werror)
endif()
target_compile_definitions(strata_compile_options INTERFACE
    $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS QT_FORCE_ASSERTS>)
target_include_directories(strata_compile_options INTERFACE ${PROJECT_SOURCE_DIR})

# KDE "moderncode" definitions for every target that sees Qt.
add_library(strata_qt_options INTERFACE)
target_link_libraries(strata_qt_options INTERFACE strata_compile_options)
target_compile_definitions(strata_qt_options INTERFACE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_CAST_FROM_BYTEARRAY QT_NO_URL_CAST_FROM_STRING
    QT_USE_QSTRINGBUILDER QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_NO_KEYWORDS QT_NO_FOREACH)

if(STRATA_SANITIZE)
    # -g1 keeps function names and line tables for sanitizer reports but drops the type and
    # variable debug info that makes Qt-heavy translation units slow to compile and link.
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g1)
    add_link_options(-fsanitize=address,undefined)
endif()

# In a unity build a type from a file's anonymous namespace, used in a class or a test fixture of
# that file, sits in an included file, which GCC flags (-Wsubobject-linkage) although each file
# stays its own logical unit.
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-subobject-linkage)
endif()

# lld links the ASan-instrumented test executables several times faster than ld.bfd.
find_program(STRATA_LLD ld.lld)
if(STRATA_LLD)
    add_link_options(-fuse-ld=lld)
endif()

# Precompiled Qt headers: most translation units include QtCore, so this halves rebuild time on 2 cores.
function(strata_qt_pch target)
    target_precompile_headers(${target} PRIVATE
        <QtCore/QObject> <QtCore/QString> <QtCore/QList> <QtCore/QHash> <QtCore/QDateTime>
        <QtCore/QVariant> <memory> <vector> <string> <functional>)
endfunction()
