#include <gtest/gtest.h>

// Math.Adds exists in this file and in more_math_test.cc (same suite and name, two files);
// the anonymous namespace keeps the two generated classes from clashing at link time.
namespace {
TEST(Math, Adds) { EXPECT_EQ(1 + 2, 3); }
}  // namespace
