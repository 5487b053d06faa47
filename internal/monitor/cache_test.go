package monitor

import (
	"testing"

	"github.com/vigil-web/vigil"
)

// TestHeadCacheForget: putting nil forgets a resource's head, as the
// monitor does after a write that failed, so that the next check reads
// the newest version from the store instead of trusting a stale one.
func TestHeadCacheForget(t *testing.T) {
	c := &headCache{max: 8}
	c.put(1, &vigil.Version{ID: 10})
	c.put(2, &vigil.Version{ID: 20})
	if v := c.get(1); v == nil || v.ID != 10 {
		t.Fatalf("head of 1: %+v, want version 10", v)
	}
	c.put(1, nil)
	if v := c.get(1); v != nil {
		t.Errorf("head of 1 after put(nil): %+v, want none", v)
	}
	if v := c.get(2); v == nil || v.ID != 20 {
		t.Errorf("head of 2: %+v, want version 20 kept", v)
	}
	var empty headCache
	empty.put(3, nil) // no map yet: nothing to forget, no panic
	if empty.get(3) != nil {
		t.Error("an empty cache has a head")
	}
}
