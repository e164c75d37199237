# Link layering (docs/architecture.md): no production library links a simulator, directly or
# through another library. Production libraries are the library targets defined under
# connectors/, models/, views/, web/, app/cli/ and app/desktop/ (strata_desktop_support, the
# desktop app without main()); only the executables (strata, strata-server), demo/ and the tests
# may link simulators.
#
# strata_check_layering() runs once at the end of the top-level CMakeLists.txt: it writes each
# production library's link closure to <build>/layering/links.txt (tests/layering reads it) and
# stops the configure step on a violation.

# Every target defined in `dir` and below.
function(_strata_layering_targets dir out_var)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
        _strata_layering_targets(${sub} more)
        list(APPEND targets ${more})
    endforeach()
    set(${out_var} ${targets} PARENT_SCOPE)
endfunction()

# The Strata targets `target` links, directly or through others (a static library's PRIVATE
# dependencies are linked into whatever links it, so they count). Aliases resolve to their target;
# imported targets (Qt, OpenSSL, ...) end the walk.
function(_strata_layering_closure target out_var)
    set(seen)
    set(queue ${target})
    while(queue)
        list(POP_FRONT queue current)
        get_target_property(type ${current} TYPE)
        if(type STREQUAL "INTERFACE_LIBRARY")
            get_target_property(deps ${current} INTERFACE_LINK_LIBRARIES)
        else()
            get_target_property(deps ${current} LINK_LIBRARIES)
        endif()
        if(NOT deps)
            continue()
        endif()
        # Entries may be generator expressions ($<LINK_ONLY:strata::ontap>): take every target
        # name they mention.
        string(REGEX MATCHALL "strata(::|_)[A-Za-z0-9_]+" names "${deps}")
        foreach(name IN LISTS names)
            if(NOT TARGET ${name})
                continue()
            endif()
            get_target_property(aliased ${name} ALIASED_TARGET)
            if(aliased)
                set(name ${aliased})
            endif()
            get_target_property(imported ${name} IMPORTED)
            if(imported OR name IN_LIST seen)
                continue()
            endif()
            list(APPEND seen ${name})
            list(APPEND queue ${name})
        endforeach()
    endwhile()
    set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

function(strata_check_layering)
    _strata_layering_targets(${PROJECT_SOURCE_DIR} all)
    set(lines)
    set(violations)
    foreach(target IN LISTS all)
        get_target_property(type ${target} TYPE)
        if(NOT type MATCHES "_LIBRARY$")
            continue()
        endif()
        get_target_property(dir ${target} SOURCE_DIR)
        file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${dir})
        if(NOT rel MATCHES "^(connectors|models|views|web|app/cli|app/desktop)(/|$)")
            continue()
        endif()
        _strata_layering_closure(${target} closure)
        list(SORT closure)
        string(APPEND lines "${target}: ${closure}\n")
        list(FILTER closure INCLUDE REGEX "^strata_sim")
        if(closure)
            list(JOIN closure ", " sims)
            list(APPEND violations "${target} (${rel}) links ${sims}")
        endif()
    endforeach()
    file(WRITE ${PROJECT_BINARY_DIR}/layering/links.txt "${lines}")
    if(violations)
        list(JOIN violations "\n  " text)
        message(FATAL_ERROR "A production library links a simulator (docs/architecture.md: only the strata and "
                            "strata-server executables, demo/ and tests may):\n  ${text}")
    endif()
endfunction()
