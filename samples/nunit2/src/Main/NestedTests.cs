using NUnit.Framework;

namespace Sample.Nested
{
    /// <summary>Nested namespace (Sample > Nested) and nested fixture classes (NUnit names them Outer+Inner).</summary>
    [TestFixture]
    public class Outer
    {
        [Test]
        public void OuterPasses()
        {
            Assert.IsTrue(true);
        }

        [TestFixture]
        public class Inner
        {
            [Test]
            public void InnerPasses()
            {
                Assert.AreEqual("a", "a");
            }

            [Test]
            public void InnerFails()
            {
                Assert.AreEqual("inner", "outer");
            }
        }
    }
}
