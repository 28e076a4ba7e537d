#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

TEST(Basics, Passes) { EXPECT_EQ(1 + 1, 2); }

TEST(Basics, FailsAssertion) { EXPECT_EQ(2 + 2, 5) << "arithmetic is broken"; }

TEST(Basics, ThrowsException) {
  // not an assertion: gtest catches it and reports the test as failed
  throw std::runtime_error("unexpected value");
}

TEST(Basics, DISABLED_NotReady) { FAIL() << "never runs"; }

TEST(Basics, SkipsAtRuntime) {
  GTEST_SKIP() << "not implemented yet";
  FAIL() << "never reached";
}

TEST(Basics, WritesStdout) {
  std::printf("hello from stdout\n");
  SUCCEED();
}

// a test name with non-ASCII letters (C++ identifiers allow them); quotes, <>& and the emoji
// cannot be part of a C++ identifier, so they go into a recorded property and a failure message
TEST(Basics, Unicode_éü日本) {
  RecordProperty("note", "quotes \" and ' and <>& and 🎉 é ü 日本");
  EXPECT_EQ(std::string("日本").size(), 6u);
}

TEST(Basics, FailureMessageWithSpecialCharacters) {
  EXPECT_TRUE(false) << "quotes \" and ' and <>& and 🎉 é ü 日本";
}

class IsSmallTest : public ::testing::TestWithParam<int> {};

TEST_P(IsSmallTest, BelowThree) { EXPECT_LT(GetParam(), 3); }

INSTANTIATE_TEST_SUITE_P(Values, IsSmallTest, ::testing::Values(1, 2, 3));

// two test suites with the same test name: Math.Adds (below) and Strings.Adds
TEST(Strings, Adds) { EXPECT_EQ(std::string("a") + "b", "ab"); }
