# ctest masked_training: nxv-train on the full device and on NXV_DEVICE_MASK=minimum (only Vulkan 1.2's required
# features and minimum limits) reaches the same losses and accuracy, to the printed digit: every op is bit-identical
# there too, natively or through the counted host fallbacks its tier explains. One epoch of a few batches of each
# model (lenet: convs, pooling, the fused elementwise chains; mlp: dots and the log-softmax reductions).
# Script mode; tests/CMakeLists.txt passes TRAIN (the nxv-train binary) and WORK_DIR with -D.
foreach(var TRAIN WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "masked_training.cmake: -D${var}=... is required")
  endif()
endforeach()

foreach(model mlp lenet)
  foreach(arm full minimum)
    if(arm STREQUAL "minimum")
      set(ENV{NXV_DEVICE_MASK} minimum)
    else()
      unset(ENV{NXV_DEVICE_MASK})
    endif()
    set(out ${WORK_DIR}/${model}-${arm})
    file(REMOVE_RECURSE ${out})
    execute_process(COMMAND ${TRAIN} --model ${model} --device vulkan --epochs 1 --subset 512 --test-subset 500
                            --out ${out} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "masked_training: nxv-train --model ${model} (${arm} device) failed (${rc}):\n${log}")
    endif()
    # metrics.csv: epoch,train_loss,test_loss,test_accuracy,seconds,samples_per_second; the first four must agree.
    file(STRINGS ${out}/metrics.csv rows)
    list(GET rows 1 row)
    string(REGEX MATCH "^[^,]*,[^,]*,[^,]*,[^,]*" ${arm}_values "${row}")
  endforeach()
  if(NOT full_values STREQUAL minimum_values)
    message(FATAL_ERROR "masked_training: ${model} differs between the devices (epoch,train loss,test loss,accuracy)"
                        "\n  full:    ${full_values}\n  minimum: ${minimum_values}")
  endif()
  message(STATUS "masked_training: ${model} on both devices (epoch,train loss,test loss,accuracy): ${full_values}")
endforeach()
