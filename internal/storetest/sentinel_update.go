package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testSentinelsUpdatedTogether: UpdateSentinels saves its sentinels in
// one transaction: one that cannot be saved, in the middle of the list
// (removed meanwhile, or invalid), leaves every sentinel as it was. An
// edited sentinel and the ones using it were saved one by one, and a
// failure half-way left the first ones saved and the others not.
func testSentinelsUpdatedTogether(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var stored []*vigil.Sentinel
	for i := range 3 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Spec: json.RawMessage(`{"v":0}`),
			Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		stored = append(stored, sn)
	}
	gone := stored[1]
	must(t, s.DeleteSentinel(ctx, gone.ID))
	edited := func(sn *vigil.Sentinel) *vigil.Sentinel {
		e := *sn
		e.Spec, e.NextCheck = json.RawMessage(`{"v":1}`), t0.Add(time.Minute)
		return &e
	}
	invalid := edited(stored[2])
	invalid.Name = ""
	for _, tc := range []struct {
		name string
		list []*vigil.Sentinel
		code string
	}{
		{"one removed", []*vigil.Sentinel{edited(stored[0]), edited(gone), edited(stored[2])}, vigil.ENOTFOUND},
		{"one invalid", []*vigil.Sentinel{edited(stored[0]), invalid, edited(stored[2])}, vigil.EINVALID},
	} {
		if err := s.UpdateSentinels(ctx, tc.list); vigil.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
		for _, sn := range []*vigil.Sentinel{stored[0], stored[2]} {
			got, err := s.FindSentinelByID(ctx, sn.ID)
			must(t, err)
			if string(got.Spec) != `{"v":0}` || !got.NextCheck.Equal(t0) || !got.UpdatedAt.Equal(sn.UpdatedAt) {
				t.Errorf("%s: sentinel %s was saved: spec %s, next check %v", tc.name, sn.Name, got.Spec, got.NextCheck)
			}
		}
	}

	list := []*vigil.Sentinel{edited(stored[2]), edited(stored[0])}
	must(t, s.UpdateSentinels(ctx, list))
	for _, sn := range list {
		got, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		if string(got.Spec) != `{"v":1}` || !got.NextCheck.Equal(t0.Add(time.Minute)) || !got.UpdatedAt.Equal(sn.UpdatedAt) || !got.CreatedAt.Equal(sn.CreatedAt) {
			t.Errorf("sentinel %s: %+v; want it saved, as the list's copy says (%+v)", sn.Name, got, sn)
		}
	}
	must(t, s.UpdateSentinels(ctx, nil))
}
