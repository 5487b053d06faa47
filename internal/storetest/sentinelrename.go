package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// testSentinelRenameUnique checks that UpdateSentinels refuses to rename
// a sentinel to a name its owner already uses (vigil.SameSentinelName),
// ECONFLICT and nothing stored, as CreateSentinel refuses it: among the
// owner's other sentinels and among the new names of the list, while
// sentinels of one list may swap their names, and another owner's name
// does not count. Of a rename and an add of one name at once, one wins.
func testSentinelRenameUnique(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada := newUser(t, s, "ada@example.com")
	bob := newUser(t, s, "bob@example.com")
	add := func(owner int64, name string) *vigil.Sentinel {
		t.Helper()
		sn := &vigil.Sentinel{OwnerID: owner, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		return sn
	}
	renamed := func(sn *vigil.Sentinel, name string) *vigil.Sentinel {
		c := *sn
		c.Name = name
		return &c
	}
	stored := func(sn *vigil.Sentinel) string {
		t.Helper()
		got, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		return got.Name
	}
	prices, other, third := add(ada.ID, "prices"), add(ada.ID, "other"), add(ada.ID, "third")
	add(bob.ID, "bobs")

	err := s.UpdateSentinel(ctx, renamed(other, "Prices"))
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "Prices", prices.ID, "prices")
	if got := stored(other); got != "other" {
		t.Errorf("other renamed to Prices though prices exists: stored %q", got)
	}
	// Refused in a list too, and the list's other sentinel is not saved.
	err = s.UpdateSentinels(ctx, []*vigil.Sentinel{renamed(third, "fourth"), renamed(other, "PRICES")})
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "PRICES", prices.ID, "prices")
	if got := stored(third); got != "third" {
		t.Errorf("third saved by a refused list: %q", got)
	}
	// Two of a list renamed to one name: the first is refused the name
	// the second takes.
	err = s.UpdateSentinels(ctx, []*vigil.Sentinel{renamed(third, "same"), renamed(other, "Same")})
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "same", other.ID, "Same")
	// A name renamed to by one of the list and left by another is free:
	// a swap, and a shift.
	must(t, s.UpdateSentinels(ctx, []*vigil.Sentinel{renamed(prices, "other"), renamed(other, "prices")}))
	if stored(prices) != "other" || stored(other) != "prices" {
		t.Errorf("swap: %q and %q", stored(prices), stored(other))
	}
	must(t, s.UpdateSentinels(ctx, []*vigil.Sentinel{renamed(third, "PRICES"), renamed(other, "fifth")}))
	// A change of case only, another owner's name, an update that keeps
	// the name.
	must(t, s.UpdateSentinel(ctx, renamed(third, "Prices")))
	must(t, s.UpdateSentinel(ctx, renamed(prices, "bobs")))
	must(t, s.UpdateSentinel(ctx, renamed(prices, "bobs")))
	if stored(third) != "Prices" || stored(prices) != "bobs" {
		t.Errorf("renames: %q and %q", stored(third), stored(prices))
	}

	// Rounds of adds and renames of one name at once: one wins.
	const n = 4
	for round := range 3 {
		name := fmt.Sprint("r", round)
		var movers []*vigil.Sentinel
		for i := range n {
			movers = append(movers, add(ada.ID, fmt.Sprint("m", round, "-", i)))
		}
		var wg sync.WaitGroup
		errs := make([]error, 2*n)
		for i := range n {
			wg.Go(func() { errs[i] = s.UpdateSentinel(ctx, renamed(movers[i], name)) })
			wg.Go(func() {
				errs[n+i] = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: ada.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch vigil.ErrorCode(err) {
			case "":
				won++
			case vigil.ECONFLICT:
				var taken *vigil.SentinelNameTakenError
				if !errors.As(err, &taken) {
					t.Errorf("concurrent rename or add refused by %v, not as a name taken (vigil.SentinelNameTakenError)", err)
				}
			default:
				t.Errorf("concurrent rename or add: %v", err)
			}
		}
		list, _, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: ada.ID})
		must(t, err)
		called := 0
		for _, sn := range list {
			if vigil.SameSentinelName(sn.Name, name) {
				called++
			}
		}
		if won != 1 || called != 1 {
			t.Fatalf("%d renames to %s and %d adds at once: %d succeeded, %d stored; want 1 and 1", n, name, n, won, called)
		}
	}
}

// NameWriter writes name to the sentinel id of the store it was opened
// with, past the store: a second sentinel of one name for one owner, as
// a store kept them before it refused them.
type NameWriter func(t *testing.T, id int64, name string)

// RunSentinelOldDuplicates: an owner's two sentinels of one name, kept
// by an older store, do not stop an update that renames neither (a
// change of status of either, or of both at once), nor a rename of one
// to a free name or a change of its case, while a rename of a third to
// that name is still refused. The names differ in the case of a letter
// outside ASCII ("ébène", "ÉBÈNE"), the same name to the checker (in
// lower case) and to the stores, which a database that refuses names
// the same in ASCII lower case (PostgreSQL's sentinels_owner_name_key,
// 0116) still lets past. open returns a fresh, empty store and its
// NameWriter.
func RunSentinelOldDuplicates(t *testing.T, open func(t *testing.T) (vigil.Store, NameWriter)) {
	s, write := open(t)
	ctx := context.Background()
	ada := newUser(t, s, "ada@example.com")
	var sns []*vigil.Sentinel
	for _, name := range []string{"ébène", "ébène2", "third"} {
		sn := &vigil.Sentinel{OwnerID: ada.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		sns = append(sns, sn)
	}
	write(t, sns[1].ID, "ÉBÈNE")
	first, second := *sns[0], *sns[1]
	second.Name = "ÉBÈNE"
	second.Status = vigil.SentinelPaused
	must(t, s.UpdateSentinel(ctx, &second))
	first.Status, second.Status = vigil.SentinelPaused, vigil.SentinelActive
	must(t, s.UpdateSentinels(ctx, []*vigil.Sentinel{&first, &second}))
	second.Name = "Ébène"
	must(t, s.UpdateSentinel(ctx, &second))
	third := *sns[2]
	third.Name = "ébène"
	err := s.UpdateSentinel(ctx, &third)
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "ébène", sns[0].ID, "ébène")
	second.Name = "free"
	must(t, s.UpdateSentinel(ctx, &second))
	got, err := s.FindSentinelByID(ctx, second.ID)
	must(t, err)
	if got.Name != "free" || got.Status != vigil.SentinelActive {
		t.Errorf("stored %q (%s), want free (active)", got.Name, got.Status)
	}
}
