package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// testSentinelNameUnique checks that an owner's sentinel names are unique,
// as the checker compares them (in lower case): a second sentinel of a
// name the owner uses is refused (ECONFLICT) and not stored, another
// owner may use it, and of concurrent adds of one name exactly one is
// stored, whatever the process (a check done before the insert, outside
// its transaction, lets several through).
func testSentinelNameUnique(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada := newUser(t, s, "ada@example.com")
	bob := newUser(t, s, "bob@example.com")
	first := &vigil.Sentinel{OwnerID: ada.ID, Name: "Prices", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, first))
	again := &vigil.Sentinel{OwnerID: ada.ID, Name: "prices", Source: "y", Status: vigil.SentinelActive, NextCheck: t0}
	err := s.CreateSentinel(ctx, again)
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "prices", first.ID, "Prices")
	// A long name is cut in the message as in every diagnostic.
	long := &vigil.Sentinel{OwnerID: ada.ID, Name: strings.Repeat("L", 200), Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, long))
	err = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: ada.ID, Name: strings.Repeat("l", 200), Source: "y", Status: vigil.SentinelActive, NextCheck: t0})
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, strings.Repeat("l", 200), long.ID, long.Name)
	must(t, s.DeleteSentinel(ctx, long.ID))
	must(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: bob.ID, Name: "prices", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}))
	if list, _, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: ada.ID}); err != nil || len(list) != 1 {
		t.Fatalf("ada's sentinels after a refused add: %v (%v), want 1", list, err)
	}
	// The checker tells "ſale" (long s) from "sale", whose lower cases
	// differ, though strings.EqualFold takes one for the other: both may
	// be added, and a second "SALE" may not.
	sale := &vigil.Sentinel{OwnerID: bob.ID, Name: "sale", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, sale))
	must(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: bob.ID, Name: "ſale", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}))
	err = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: bob.ID, Name: "SALE", Source: "x", Status: vigil.SentinelActive, NextCheck: t0})
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "SALE", sale.ID, "sale")
	// A letter outside ASCII in another case is the same name too, on
	// every backend, though PostgreSQL's constraint (0116) compares the
	// names in ASCII lower case: the stores look for the name as the
	// checker does.
	ete := &vigil.Sentinel{OwnerID: bob.ID, Name: "Été", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, ete))
	err = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: bob.ID, Name: "été", Source: "x", Status: vigil.SentinelActive, NextCheck: t0})
	wantCode(t, err, vigil.ECONFLICT)
	wantNameTaken(t, err, "été", ete.ID, "Été")

	// Three rounds of eight: one round lets several through only now
	// and then when the look and the insert are apart.
	const n = 8
	for round := range 3 {
		name := fmt.Sprint("c", round)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				errs[i] = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: ada.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0})
			})
		}
		wg.Wait()
		added := 0
		for _, err := range errs {
			switch vigil.ErrorCode(err) {
			case "":
				added++
			case vigil.ECONFLICT:
				var taken *vigil.SentinelNameTakenError
				if !errors.As(err, &taken) {
					t.Errorf("concurrent add refused by %v, not as a name taken (vigil.SentinelNameTakenError)", err)
				}
			default:
				t.Errorf("concurrent add: %v", err)
			}
		}
		list, _, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: ada.ID})
		must(t, err)
		stored := 0
		for _, sn := range list {
			if sn.Name == name {
				stored++
			}
		}
		if added != 1 || stored != 1 {
			t.Fatalf("%d concurrent adds of %s: %d succeeded, %d stored; want 1 and 1", n, name, added, stored)
		}
	}
}

// wantNameTaken fails t unless err is the store's refusal of the name
// name (vigil.SentinelNameTakenError, found by errors.As) that the
// sentinel id, called idName, has, saying so in the one wording of a
// name taken (spec.NameTakenMessage), as the check, the editor, the API
// and the command line say it.
func wantNameTaken(t *testing.T, err error, name string, id int64, idName string) {
	t.Helper()
	var taken *vigil.SentinelNameTakenError
	if !errors.As(err, &taken) {
		t.Fatalf("error %v: not a vigil.SentinelNameTakenError", err)
	}
	if taken.Name != name || taken.ID != id || taken.IDName != idName {
		t.Errorf("name taken %+v, want name %s taken by sentinel %d, %s", *taken, name, id, idName)
	}
	if msg, want := vigil.ErrorMessage(err), spec.NameTakenMessage(name, spec.NameHolder{Name: idName, ID: id}); msg != want {
		t.Errorf("message %q, want %q (spec.NameTakenMessage)", msg, want)
	}
}
