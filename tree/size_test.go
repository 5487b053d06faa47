package tree

import (
	"testing"
	"unsafe"
)

// TestNodeSize keeps the node small: a 10 MB data document has hundreds of
// thousands of them, and their size is most of a parsed tree's memory.
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s > 104 {
		t.Errorf("Node is %d bytes, want at most 104", s)
	}
}
