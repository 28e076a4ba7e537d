using NUnit.Framework;

namespace Sample
{
    /// <summary>Same full name (Sample.MathTests.Adds) as in the Other assembly.</summary>
    [TestFixture]
    public class MathTests
    {
        [Test]
        public void Adds()
        {
            Assert.AreEqual(4, 2 + 2);
        }
    }
}
