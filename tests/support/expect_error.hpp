// expect_error: the one check that a call throws nxv::Error whose message names what it should (the op, what it
// got, what it expected). Every test of bad input uses it; error_of, for a test that looks at the message itself.
#pragma once
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include "nxv/error.hpp"

namespace nxv::testing {

// Runs `body`, expecting an nxv::Error whose message contains every one of `parts`.
template <class Body>
void expect_error(Body&& body, std::initializer_list<std::string> parts) {
  try {
    body();
    ADD_FAILURE() << "expected an nxv::Error mentioning \"" << *parts.begin() << "\", got none";
  } catch (const nxv::Error& e) {
    const std::string message = e.what();
    for (const auto& p : parts)
      EXPECT_NE(message.find(p), std::string::npos) << "\"" << p << "\" missing from: " << message;
  }
}

// The message of the nxv::Error `body` throws, or "(no nxv::Error)".
template <class Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const nxv::Error& e) {
    return e.what();
  }
  return "(no nxv::Error)";
}

}  // namespace nxv::testing
