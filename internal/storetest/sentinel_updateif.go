package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// testSentinelsUpdatedIf: UpdateSentinelsIf gives its check the first
// sentinel as stored and writes nothing when the check refuses; of
// concurrent edits each checked against the copy all of them read (a
// compare-and-set on the stored spec), one is saved and the others see
// it and refuse, whatever their interleaving: the check and the write
// are one step.
func testSentinelsUpdatedIf(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var stored []*vigil.Sentinel
	for i := range 2 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Spec: json.RawMessage(`{"v":0}`),
			Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		stored = append(stored, sn)
	}
	edited := func(sn *vigil.Sentinel, v int) *vigil.Sentinel {
		e := *sn
		e.Spec = json.RawMessage(fmt.Sprintf(`{"v":%d}`, v))
		return &e
	}
	stale := errors.New("stale")
	specIs := func(want string) func(*vigil.Sentinel) error {
		return func(got *vigil.Sentinel) error {
			if string(got.Spec) != want {
				return stale
			}
			return nil
		}
	}

	// Refused: neither is saved, and the check's error is returned.
	if err := s.UpdateSentinelsIf(ctx, []*vigil.Sentinel{edited(stored[0], 1), edited(stored[1], 1)}, specIs(`{"v":9}`)); !errors.Is(err, stale) {
		t.Errorf("refused: %v, want the check's error", err)
	}
	for _, sn := range stored {
		got, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		if string(got.Spec) != `{"v":0}` || !got.UpdatedAt.Equal(sn.UpdatedAt) {
			t.Errorf("refused: sentinel %s was saved: %s", sn.Name, got.Spec)
		}
	}
	// Passed: both saved, the first checked wherever it is in id order.
	var seen *vigil.Sentinel
	if err := s.UpdateSentinelsIf(ctx, []*vigil.Sentinel{edited(stored[1], 1), edited(stored[0], 1)}, func(got *vigil.Sentinel) error {
		seen = got
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen == nil || seen.ID != stored[1].ID || string(seen.Spec) != `{"v":0}` || !seen.UpdatedAt.Equal(stored[1].UpdatedAt) {
		t.Errorf("the check was given %+v, want sentinel %s as stored before", seen, stored[1].Name)
	}
	// A sentinel that does not exist: ENOTFOUND, the check not called.
	gone := &vigil.Sentinel{ID: stored[1].ID + 1000, OwnerID: u.ID, Name: "gone", Source: "x", Spec: json.RawMessage(`{}`), Status: vigil.SentinelActive}
	if err := s.UpdateSentinelsIf(ctx, []*vigil.Sentinel{gone}, func(*vigil.Sentinel) error { t.Error("check called"); return nil }); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("gone: %v, want ENOTFOUND", err)
	}

	// Concurrent edits of one read: one wins.
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = s.UpdateSentinelsIf(ctx, []*vigil.Sentinel{edited(stored[0], 10+i)}, specIs(`{"v":1}`))
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, stale):
		case vigil.ErrorCode(err) == vigil.EUNAVAILABLE:
			// SQLite's busy writer, past its timeout: nothing saved.
		default:
			t.Errorf("edit %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d concurrent edits of one read were saved, want 1", won, n)
	}
}
