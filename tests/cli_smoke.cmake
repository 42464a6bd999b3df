# End-to-end checks of fdlab-cli: exit codes, one-line errors, outputs a user can pipe.
# Run by ctest as: cmake -DCLI=... -DDATA=tests/data -DDATASETS=datasets -P cli_smoke.cmake

function(run_cli expected_rc out_var err_var)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 300)
  if(NOT rc STREQUAL "${expected_rc}")
    message(FATAL_ERROR "fdlab-cli ${ARGN}: exit ${rc}, expected ${expected_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(expect_match text regex what)
  if(NOT "${text}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: output does not match '${regex}':\n${text}")
  endif()
endfunction()

set(ENV{FDLAB_DATA_DIR} "${DATASETS}")

# usage errors -> 2
run_cli(2 out err)
run_cli(2 out err nosuchcommand)
run_cli(2 out err info)
run_cli(2 out err datasets --bogus)
run_cli(2 out err datasets --format xml)
# help -> 0
run_cli(0 out err --help)
expect_match("${out}" "datasets" "--help lists commands")
run_cli(0 out err info --help)
expect_match("${out}" "usage: fdlab-cli info" "info --help")

# the bundled catalogue
run_cli(0 out err datasets --format csv)
expect_match("${out}" "\nmnist,file,10000,784,[^\n]*,28x28," "datasets lists MNIST")
expect_match("${out}" "\nspambase,file,4601,57," "datasets lists Spambase")
run_cli(0 out err datasets --format json)
expect_match("${out}" "\"instances\": 10000" "datasets --format json")

# info on a bundled file
run_cli(0 out err info ${DATASETS}/mnist/mnist-10k-images-idx3-ubyte.gz)
expect_match("${out}" "instances: +10000" "info mnist instances")
expect_match("${out}" "image shape: 28 x 28" "info mnist shape")
run_cli(0 out err info ${DATASETS}/heart_scale/heart_scale --format json)
expect_match("${out}" "\"instances\": 270" "info heart_scale")

# every malformed file: exit 3 and a single stderr line naming the file
file(GLOB malformed ${DATA}/malformed/*)
list(LENGTH malformed n)
if(n LESS 10)
  message(FATAL_ERROR "malformed corpus has only ${n} files")
endif()
foreach(f IN LISTS malformed)
  get_filename_component(name ${f} NAME)
  if(name MATCHES "-labels-")  # an IDX labels file is the partner of an images file
    continue()
  endif()
  set(extra "")
  if(name MATCHES "missing_label_column")
    set(extra --label class)
  endif()
  run_cli(3 out err info ${f} ${extra})
  string(STRIP "${err}" err1)
  if(err1 MATCHES "\n")
    message(FATAL_ERROR "error for ${name} is not one line:\n${err}")
  endif()
  expect_match("${err1}" "${name}" "error names the file")
endforeach()
message(STATUS "cli_smoke: ${n} malformed files rejected with one-line errors")

# ---- experiments, models and attacks -------------------------------------------------------
set(TMP ${CMAKE_CURRENT_BINARY_DIR}/cli_smoke_tmp)
file(REMOVE_RECURSE ${TMP})
file(MAKE_DIRECTORY ${TMP})

run_cli(0 out err presets)
expect_match("${out}" "dekel-shamir-label-copy" "presets lists the label-copy preset")
run_cli(0 out err run globerson-toy --repetitions 1 --format csv --quiet --output ${TMP}/toy.json --csv ${TMP}/toy.csv)
expect_match("${out}" "learner,level,repetitions,mean_error" "run --format csv header")
expect_match("${out}" "\nFDROP \\(K=1\\),1," "run has FDROP at p = 1")
file(READ ${TMP}/toy.json toy)
expect_match("${toy}" "\"fdlab_version\"" "results JSON has the version")
expect_match("${toy}" "\"points\"" "results JSON has the points")
run_cli(3 out err run no-such-preset)
expect_match("${err}" "neither an experiment file nor a preset" "unknown preset")

run_cli(0 out err train --bundled heart_scale --scale minus-one-one --learner fdrop --params "{\"K\": 2}" --output ${TMP}/heart.json)
expect_match("${out}" "trained fdrop" "train prints a summary")
run_cli(0 out err eval --model ${TMP}/heart.json --bundled heart_scale --scale minus-one-one --threat worst-case-count --levels 0,2,4 --format csv)
expect_match("${out}" "level,error,auc\n0," "eval csv")
run_cli(3 out err eval --model ${TMP}/missing.json --bundled heart_scale)
expect_match("${err}" "missing.json" "missing model named")
run_cli(3 out err train --bundled heart_scale --learner nosuch --output ${TMP}/x.json)
expect_match("${err}" "unknown learner 'nosuch'" "unknown learner")
run_cli(3 out err train --bundled heart_scale --learner svm --params "{\"C\": -1}" --output ${TMP}/x.json)
expect_match("${err}" "parameter C" "bad parameter named")
run_cli(3 out err eval --model ${TMP}/heart.json --bundled heart_scale --scale minus-one-one --threat worst-case-value-exact --levels 13)
expect_match("${err}" "total value V" "budget beyond the total value")

run_cli(0 out err train --bundled mnist --positive 3 --negative 5 --test-fraction 0.5 --learner svm --output ${TMP}/m35.json)
run_cli(0 out err attack --model ${TMP}/m35.json --bundled mnist --positive 3 --negative 5 --test-fraction 0.5
        --threat worst-case-count --budget 20 --png ${TMP}/grid.png --count 8)
expect_match("${out}" "instance,label,margin_before,margin_after,deleted\n0," "attack csv")
file(READ ${TMP}/grid.png png HEX LIMIT 8)
if(NOT png STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "attack --png did not write a PNG (${png})")
endif()
message(STATUS "cli_smoke: experiment, model and attack commands ok")
run_cli(0 out err train --bundled vote --learner featureboost --params "{\"rounds\": 3}" --output ${TMP}/fb.json)
file(READ ${TMP}/fb.json fb)
expect_match("${fb}" "fdlab-classifier" "a FeatureBoost model is saved as a classifier file")

# non-linear (classifier) model files through eval and attack
run_cli(0 out err eval --model ${TMP}/fb.json --bundled vote --threat feature-corruption --levels 0,0.3 --format csv)
expect_match("${out}" "level,error,auc\n0,0\\.0[0-9]*,[01][0-9.]*\n0\\.3,0\\.[0-9]+," "eval of a FeatureBoost file")
run_cli(0 out err attack --model ${TMP}/fb.json --bundled vote --threat greedy-deletion --budget 3 --format json)
expect_match("${out}" "\"threat\": \"greedy-deletion\"" "attack of a FeatureBoost file (json)")
expect_match("${out}" "\"margin_after\"" "attack json has margins")
run_cli(0 out err train --bundled mnist --positive 3 --negative 5 --test-fraction 0.9 --learner tree --params "{\"depth\": 4}" --output ${TMP}/tree35.json)
run_cli(0 out err attack --model ${TMP}/tree35.json --bundled mnist --positive 3 --negative 5 --test-fraction 0.9
        --threat greedy-deletion --budget 5 --png ${TMP}/tree_grid.png --count 6)
expect_match("${out}" "instance,label,margin_before,margin_after,deleted\n0,[35],-?[0-9.e-]+,-?[0-9.e-]+," "attack csv of a tree")
# a classifier file against data of another shape or other classes: exit 3, one line
run_cli(3 out err eval --model ${TMP}/fb.json --bundled heart_scale)
expect_match("${err}" "model expects 32 features, dataset 'heart_scale' has 13" "feature count mismatch")
run_cli(3 out err eval --model ${TMP}/tree35.json --bundled mnist --positive 3 --negative 8)
expect_match("${err}" "model classes \\[5, 3\\]|model classes \\[3, 5\\]" "class mismatch")
file(WRITE ${TMP}/broken.json "{\"format\": \"fdlab-classifier\", \"schema_version\": 1, \"model\": {\"type\": \"knn\"}}")
run_cli(3 out err eval --model ${TMP}/broken.json --bundled vote)
expect_match("${err}" "broken.json" "broken classifier file named")
message(STATUS "cli_smoke: classifier files through eval and attack ok")
