#include <gtest/gtest.h>

// same suite and name as math_test.cc
namespace {
TEST(Math, Adds) { EXPECT_EQ(2 + 2, 4); }
}  // namespace
