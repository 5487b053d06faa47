package storetest

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testSentinelFeedRotation: a sentinel's feed generation starts at 0, each
// rotation adds one to that sentinel's alone, every read returns it, and
// an update never writes it: one made from a copy read before a rotation
// would give back the revoked feed URLs.
func testSentinelFeedRotation(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	// A new sentinel's feed is at generation 0, whatever it is given.
	a := &vigil.Sentinel{OwnerID: u.ID, Name: "a", Source: "x", Status: vigil.SentinelActive, NextCheck: t0, FeedGeneration: 5}
	must(t, s.CreateSentinel(ctx, a))
	b := &vigil.Sentinel{OwnerID: u.ID, Name: "b", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, b))
	if a.FeedGeneration != 0 {
		t.Fatalf("created with generation 5: FeedGeneration %d, want 0", a.FeedGeneration)
	}
	wantGeneration(t, s, a.ID, 0)
	stale, err := s.FindSentinelByID(ctx, a.ID)
	must(t, err)

	for want := int64(1); want <= 2; want++ {
		gen, err := s.RotateSentinelFeed(ctx, a.ID)
		must(t, err)
		if gen != want {
			t.Fatalf("rotation %d: generation %d", want, gen)
		}
	}
	wantGeneration(t, s, a.ID, 2)
	wantGeneration(t, s, b.ID, 0)
	// Nothing else of the sentinel changed.
	got, err := s.FindSentinelByID(ctx, a.ID)
	must(t, err)
	if got.Name != "a" || !got.UpdatedAt.Equal(stale.UpdatedAt) || !got.NextCheck.Equal(t0) || got.Status != vigil.SentinelActive {
		t.Errorf("after rotations: %+v, before: %+v", got, stale)
	}

	// Every read carries the generation: the list, and the claim whose
	// sentinels the monitor writes messages for.
	list, _, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	must(t, err)
	if gens := generations(list); !maps.Equal(gens, map[int64]int64{a.ID: 2, b.ID: 0}) {
		t.Errorf("listed generations %v", gens)
	}
	claimed, err := s.ClaimDueSentinels(ctx, t0, time.Minute, 10)
	must(t, err)
	if gens := generations(claimed); !maps.Equal(gens, map[int64]int64{a.ID: 2, b.ID: 0}) {
		t.Errorf("claimed generations %v", gens)
	}

	// An update from the copy read before the rotations keeps the stored
	// generation and says so.
	stale.Name = "a2"
	must(t, s.UpdateSentinel(ctx, stale))
	if stale.FeedGeneration != 2 {
		t.Errorf("updated from a stale copy: FeedGeneration %d, want 2", stale.FeedGeneration)
	}
	wantGeneration(t, s, a.ID, 2)

	_, err = s.RotateSentinelFeed(ctx, 9999)
	wantCode(t, err, vigil.ENOTFOUND)
}

// testSentinelFeedRotationConcurrent: rotations at once each add one, and
// each is told a generation of its own.
func testSentinelFeedRotationConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "a", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	const n = 8
	gens := make([]int64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { gens[i], errs[i] = s.RotateSentinelFeed(ctx, sn.ID) })
	}
	wg.Wait()
	for _, err := range errs {
		must(t, err)
	}
	slices.Sort(gens)
	for i, g := range gens {
		if g != int64(i+1) {
			t.Fatalf("concurrent rotations were told generations %v, want 1 to %d", gens, n)
		}
	}
	wantGeneration(t, s, sn.ID, n)
}

func wantGeneration(t *testing.T, s vigil.Store, id, want int64) {
	t.Helper()
	got, err := s.FindSentinelByID(context.Background(), id)
	must(t, err)
	if got.FeedGeneration != want {
		t.Fatalf("sentinel %d: feed generation %d, want %d", id, got.FeedGeneration, want)
	}
}

// generations maps each sentinel's id to its feed generation.
func generations(list []*vigil.Sentinel) map[int64]int64 {
	out := make(map[int64]int64, len(list))
	for _, sn := range list {
		out[sn.ID] = sn.FeedGeneration
	}
	return out
}
