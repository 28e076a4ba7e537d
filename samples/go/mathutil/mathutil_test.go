package mathutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestAdds(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("1 + 2 should be 3")
	}
}

func TestPasses(t *testing.T) {}

func TestFailsAssertion(t *testing.T) {
	if got := Add(2, 2); got != 5 {
		t.Errorf("Add(2, 2) = %d, want 5", got)
	}
}

func TestReturnsError(t *testing.T) {
	err := errors.New("unexpected value")
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not implemented yet")
}

func TestWritesStdout(t *testing.T) {
	fmt.Println("hello from stdout")
	t.Log("hello from t.Log")
}

// table-driven: 3 cases, the last one fails
func TestIsSmall(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		n := n
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			if !IsSmall(n) {
				t.Errorf("IsSmall(%d) = false, want true", n)
			}
		})
	}
}

// nested subtests: suite > group > test
func TestNested(t *testing.T) {
	t.Run("outer", func(t *testing.T) {
		t.Run("inner passes", func(t *testing.T) {})
		t.Run("inner skips", func(t *testing.T) { t.Skip("skipped inside a subtest") })
	})
}

func TestSpecialNames(t *testing.T) {
	t.Run(`quotes " and ' and <>& and 🎉 é ü 日本`, func(t *testing.T) {})
}

func TestUnicode_éü日本(t *testing.T) {}

// fails on its first attempt, passes once the marker file exists (regenerate.sh clears the dir)
func TestFlakyRetried(t *testing.T) {
	dir := os.Getenv("SAMPLE_MARKER_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "testcycle-sample-go-markers")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "flaky_retried.marker")
	if _, err := os.Stat(marker); err != nil {
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Fatal("first attempt fails")
	}
}
