package strutil

import "testing"

// same test name as mathutil.TestAdds, in another package
func TestAdds(t *testing.T) {
	if Shout("a")+Shout("b") != "AB" {
		t.Fatal("concatenation is broken")
	}
}

func TestShout(t *testing.T) {
	if Shout("héllo") != "HÉLLO" {
		t.Fatal("Shout should upper-case non-ASCII letters")
	}
}
