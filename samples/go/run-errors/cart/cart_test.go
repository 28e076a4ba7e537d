package cart

import "testing"

func TestAddsAnItem(t *testing.T) {
	if got := len(append([]int{1}, 2)); got != 2 {
		t.Fatalf("got %d items", got)
	}
}
