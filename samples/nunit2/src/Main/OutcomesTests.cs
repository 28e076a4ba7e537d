using System;
using NUnit.Framework;

namespace Sample
{
    [TestFixture]
    public class OutcomesTests
    {
        [Test]
        public void Passes()
        {
            Assert.IsTrue(true);
        }

        [Test]
        public void FailsWithAssertion()
        {
            Assert.AreEqual(3, 1 + 1, "expected <b> & 'quoted' \"text\"");
        }

        [Test]
        public void ErrorsWithException()
        {
            // Not an assertion: NUnit 2 reports result="Error".
            throw new InvalidOperationException("boom: état 日本");
        }

        [Test]
        [Ignore("ignored on purpose")]
        public void Ignored()
        {
            Assert.Fail("never runs");
        }

        [Test]
        public void Inconclusive()
        {
            Assert.Inconclusive("not decided yet (pending)");
        }

        [Test]
        public void WritesToStdout()
        {
            Console.WriteLine("hello from stdout: é ü 日本 <>&");
            Console.Error.WriteLine("hello from stderr");
            Assert.IsTrue(true);
        }

        [Test]
        public void UnicodeNameÉüß日本()
        {
            Assert.IsTrue(true);
        }

        [TestCase("double \"quotes\" and 'single'", 2, 2)]
        [TestCase("markup <>& and emoji \U0001F680", 3, 3)]
        [TestCase("non-ASCII é ü 日本", 4, 5)]
        public void Matches(string label, int actual, int expected)
        {
            Assert.AreEqual(expected, actual, label);
        }
    }

    [TestFixture]
    public class FixtureSetUpErrorTests
    {
        [TestFixtureSetUp]
        public void BrokenFixtureSetUp()
        {
            throw new InvalidOperationException("fixture setup failed");
        }

        [Test]
        public void NeverRunsBecauseFixtureSetUpFails()
        {
            Assert.IsTrue(true);
        }
    }
}
