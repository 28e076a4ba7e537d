using NUnit.Framework;

namespace Sample
{
    /// <summary>Same full name (Sample.MathTests.Adds) as in the Main assembly.</summary>
    [TestFixture]
    public class MathTests
    {
        [Test]
        public void Adds()
        {
            Assert.AreEqual(10, 7 + 3);
        }
    }
}
