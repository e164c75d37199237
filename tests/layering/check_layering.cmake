# The layering of docs/architecture.md, checked on the source tree and the configured link graph:
#
#   cmake -DSOURCE_DIR=<repo> -DLINKS_FILE=<build>/layering/links.txt -DWORK_DIR=<scratch>
#         -P tests/layering/check_layering.cmake
#
# First it proves that it can fail: it writes a scratch tree that breaks every rule once and
# expects each break to be reported (and a clean file not to be). Then it checks the real tree and
# fails with one line per forbidden include ("web/x.cpp:3: web/ must not include app/ ...") and
# per production library that links a simulator.
cmake_minimum_required(VERSION 3.25)

# Rules: "<folder regex>!<forbidden include regex>!<why>[!<allowed include regex>]". Folders are
# relative to the root; the include text is what follows #include, quotes or angle brackets kept;
# an include the optional fourth part matches is allowed although the second matches it.
set(strata_layering_rules
    "^(web|models|views|connectors|simulators|demo)/!^\"app/!nothing below app/ includes app/"
    "^connectors/!^<Q!connectors are plain C++ (no Qt)"
    "^connectors/!^\"simulators/!connectors never include simulators"
    "^connectors/!^\"(models|views|web|demo)/!connectors know nothing above them"
    "^simulators/!^\"connectors/!simulators never include connectors"
    "^simulators/!^\"models/!simulators never include models"
    "^models/!^\"(views|web|demo)/!models never include views, web or demo"
    "^models/!^\"simulators/!models never include simulators"
    "^(web|views)/!^\"simulators/!front ends never include simulators"
    "^views/!^\"(connectors|web)/!views never include connectors or web"
    "^models/(rows|item)/!^\"connectors/!only models/core sees connector types"
    "^models/core/domain/!^\"(models|connectors)/!the domain layer includes nothing of Strata above it!^\"(models/core/domain/|connectors/result\\.h\")"
    "^models/core/store/!^\"(models|connectors)/!the store includes only the domain below it!^\"(models/core/(domain|store)/|connectors/result\\.h\")"
    "^models/core/planning/!^\"(models|connectors)/!planning computes over the domain and the store only!^\"(models/core/(domain|store|planning)/|connectors/result\\.h\")"
    "^models/core/services/!^\"(models|connectors)/!services run over planning, the store and the domain, never the engine or a source!^\"(models/core/(domain|store|planning|services)/|connectors/result\\.h\")"
    "^models/core/sources/!^\"models/!sources never include the engine or the runtime above them!^\"models/core/(domain|store|planning|services|sources)/"
    "^models/core/sources/ontap/!^\"(models/core/sources/(azure|kubernetes|storagegrid)/|connectors/(azure|kubernetes|prometheus|storagegrid|dataset|s3|sentiment)/)!a system's source uses its own connector only and no other system's source"
    "^models/core/sources/azure/!^\"(models/core/sources/(ontap|kubernetes|storagegrid)/|connectors/(ontap|kubernetes|prometheus|storagegrid|dataset|s3|sentiment)/)!a system's source uses its own connector only and no other system's source"
    "^models/core/sources/kubernetes/!^\"(models/core/sources/(ontap|azure|storagegrid)/|connectors/(ontap|azure|storagegrid|dataset|s3|sentiment)/)!a system's source uses its own connector only and no other system's source"
    "^models/core/sources/storagegrid/!^\"(models/core/sources/(ontap|azure|kubernetes)/|connectors/(ontap|azure|kubernetes|prometheus|sentiment)/)!a system's source uses its own connector only and no other system's source")
set(strata_layering_folders connectors models views web simulators demo)

# Appends to `out_var` one line per forbidden include under `root`.
function(strata_layering_includes root out_var)
    set(found)
    foreach(folder IN LISTS strata_layering_folders)
        file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${root}
            ${root}/${folder}/*.h ${root}/${folder}/*.cpp ${root}/${folder}/*.hpp)
        foreach(rel IN LISTS files)
            if(rel MATCHES "/node_modules/")
                continue()
            endif()
            file(STRINGS ${root}/${rel} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
            set(number 0)
            foreach(line IN LISTS lines)
                string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*" "" target "${line}")
                foreach(rule IN LISTS strata_layering_rules)
                    string(REPLACE "!" ";" parts "${rule}")
                    list(GET parts 0 from)
                    list(GET parts 1 forbidden)
                    list(GET parts 2 why)
                    set(allowed "")
                    list(LENGTH parts fields)
                    if(fields GREATER 3)
                        list(GET parts 3 allowed)
                    endif()
                    if(allowed AND target MATCHES "${allowed}")
                        continue()
                    endif()
                    if(rel MATCHES "${from}" AND target MATCHES "${forbidden}")
                        list(APPEND found "${rel}: includes ${target} (${why})")
                    endif()
                endforeach()
            endforeach()
        endforeach()
    endforeach()
    # models/core is its layers and nothing else: a file beside them would belong to no layer.
    file(GLOB loose LIST_DIRECTORIES false RELATIVE ${root} ${root}/models/core/*.h ${root}/models/core/*.cpp)
    foreach(rel IN LISTS loose)
        list(APPEND found "${rel}: lies in no layer of models/core (domain, store, planning, services, sources, runtime)")
    endforeach()
    set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# Appends one line per production library of `links_file` whose link closure holds a simulator.
# Each line of the file is "<target>: <every target it links, directly or through others>".
function(strata_layering_links links_file out_var)
    set(found)
    if(NOT EXISTS ${links_file})
        set(${out_var} "${links_file}: missing (configure the build first)" PARENT_SCOPE)
        return()
    endif()
    file(STRINGS ${links_file} lines)
    foreach(line IN LISTS lines)
        if(line MATCHES "^([^:]+): (.*)$")
            set(target ${CMAKE_MATCH_1})
            string(REGEX MATCHALL "strata_sim[A-Za-z0-9_]*" sims "${CMAKE_MATCH_2}")
            if(sims)
                list(REMOVE_DUPLICATES sims)
                list(JOIN sims ", " sims)
                list(APPEND found "${target}: links ${sims} (no production library links a simulator)")
            endif()
        endif()
    endforeach()
    set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# The self-test: one break per rule must be found, the clean files must not be.
set(scratch ${WORK_DIR}/layering-selftest)
file(REMOVE_RECURSE ${scratch})
set(breaks
    "web/a.cpp|#include \"app/cli/cli.h\""
    "demo/b.h|#include \"app/cli/cli.h\""
    "connectors/c/c.cpp|#include <QString>"
    "connectors/c/d.h|#include \"simulators/ontap/ontapsimulator.h\""
    "simulators/e/e.cpp|#include \"connectors/http/httpclient.h\""
    "simulators/e/f.cpp|#  include \"models/core/domain/records.h\""
    "models/core/runtime/g.cpp|#include \"views/mainwindow.h\""
    "models/rows/h.cpp|#include \"web/api.h\""
    "models/item/i.h|#include \"demo/demoestate.h\""
    "models/core/runtime/j.h|#include \"simulators/kubernetes/tr4858.h\""
    "web/k.cpp|#include \"simulators/common/serverthread.h\""
    "views/l.cpp|#include \"connectors/ontap/ontapclient.h\""
    "views/m.h|#include \"web/webserver.h\""
    "connectors/n/n.h|#include \"models/core/domain/records.h\""
    "models/rows/o.cpp|#include \"connectors/ontap/ontapclient.h\""
    "models/core/domain/p.h|#include \"models/core/runtime/engine.h\""
    "models/core/domain/q.cpp|#include \"connectors/http/httpclient.h\""
    "models/core/domain/r.h|#include \"models/core/store/config.h\""
    "models/core/store/s.cpp|#include \"models/core/runtime/engine.h\""
    "models/core/store/t.h|#include \"connectors/ontap/ontapclient.h\""
    "models/core/store/u.cpp|#include \"models/core/planning/forecast.h\""
    "models/core/planning/v.cpp|#include \"models/core/services/servicelevels.h\""
    "models/core/planning/w.h|#include \"connectors/kubernetes/kubeclient.h\""
    "models/core/planning/x.h|#include \"models/core/services/actions.h\""
    "models/core/services/y.cpp|#include \"models/core/runtime/engine.h\""
    "models/core/services/z.h|#include \"models/core/sources/ontap/ontapsource.h\""
    "models/core/sources/ontap/a.cpp|#include \"models/core/runtime/engine.h\""
    "models/core/sources/b.h|#include \"models/rows/resources.h\""
    "models/core/loose.h|#include \"models/core/domain/records.h\""
    "models/core/sources/azure/c.cpp|#include \"connectors/ontap/ontapclient.h\""
    "models/core/sources/storagegrid/d.h|#include \"models/core/sources/kubernetes/kubecompute.h\"")
set(clean
    "web/ok.cpp|#include \"models/rows/resources.h\""
    "demo/ok.cpp|#include \"simulators/ontap/ontapsimulator.h\""
    "connectors/c/ok.cpp|#include <string>"
    "views/ok.cpp|#include \"models/item/volumemodel.h\""
    "models/core/runtime/ok2.cpp|#include \"connectors/http/httpclient.h\""
    "models/core/domain/ok.h|#include \"models/core/domain/keyed.h\""
    "models/core/domain/ok.cpp|#include \"connectors/result.h\""
    "models/core/store/ok.cpp|#include \"models/core/domain/records.h\""
    "models/core/store/ok.h|#include \"models/core/store/historystore.h\""
    "models/core/planning/ok.cpp|#include \"models/core/store/historystore.h\""
    "models/core/planning/ok.h|#include \"models/core/planning/forecast.h\""
    "models/core/services/ok.cpp|#include \"models/core/planning/chargeback.h\""
    "models/core/sources/ontap/ok.cpp|#include \"connectors/ontap/ontapclient.h\""
    "models/core/sources/storagegrid/ok.cpp|#include \"connectors/dataset/datasetstore.h\""
    "models/core/sources/ok.h|#include \"models/core/services/actions.h\""
    "models/core/runtime/ok.cpp|#include \"models/core/sources/ontap/ontapsource.h\""
    "web/node_modules/x/ok.h|#include \"app/cli/cli.h\"")
foreach(entry IN LISTS breaks clean)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 path)
    list(GET parts 1 text)
    file(WRITE ${scratch}/${path} "#pragma once\n\n${text}\n")
endforeach()
strata_layering_includes(${scratch} selftest_found)
set(selftest_errors)
foreach(entry IN LISTS breaks)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 path)
    set(hits ${selftest_found})
    list(FILTER hits INCLUDE REGEX "^${path}: ")
    if(NOT hits)
        list(APPEND selftest_errors "self-test: the break in ${path} was not reported")
    endif()
endforeach()
foreach(entry IN LISTS clean)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 path)
    set(hits ${selftest_found})
    list(FILTER hits INCLUDE REGEX "^${path}: ")
    if(hits)
        list(APPEND selftest_errors "self-test: the clean ${path} was reported: ${hits}")
    endif()
endforeach()
file(WRITE ${scratch}/links.txt "strata_web: strata_core;strata_cli;strata_simkube;strata_simcommon\nstrata_rows: strata_core\n")
strata_layering_links(${scratch}/links.txt selftest_links)
if(NOT selftest_links MATCHES "^strata_web: links strata_simkube, strata_simcommon")
    list(APPEND selftest_errors "self-test: strata_web linking strata_simkube was not reported (${selftest_links})")
endif()
file(REMOVE_RECURSE ${scratch})
if(selftest_errors)
    list(JOIN selftest_errors "\n" text)
    message(FATAL_ERROR "${text}")
endif()

# The real tree and link graph.
strata_layering_includes(${SOURCE_DIR} include_errors)
strata_layering_links(${LINKS_FILE} link_errors)
set(errors ${include_errors} ${link_errors})
if(errors)
    list(LENGTH errors count)
    list(JOIN errors "\n  " text)
    message(FATAL_ERROR "layering: ${count} violation(s) (docs/architecture.md):\n  ${text}")
endif()
file(STRINGS ${LINKS_FILE} checked)
list(LENGTH checked count)
message(STATUS "layering: no forbidden include; ${count} production libraries link no simulator")
