package monitor

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// TestChangePages: a digest names the page of each of its changes by the
// URL its resource is stored under (vigil.CanonicalURL of the page's,
// "http://B.example:80/y#f" as "http://b.example/y"), whether the monitor
// knows the resource (a page of the sentinel it fetched: resource) or not
// (a page the sentinel no longer watches, or one no check fetched since
// the daemon started); it names none if a change's resource cannot be
// read, nor for a site's sentinel (its message names the site).
func TestChangePages(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		ctx := context.Background()
		db := open(t)
		m := &Monitor{Store: db}
		m.init()
		known := []string{"http://a.example/x", "http://B.example:80/y#f"}
		var ids []int64
		for _, u := range known {
			id, err := m.resource(ctx, u) // fetched: known to the monitor
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		gone, err := db.EnsureResource(ctx, "http://c.example/z") // no longer watched
		if err != nil {
			t.Fatal(err)
		}
		unread, err := db.EnsureResource(ctx, "http://d.example/") // watched, not fetched since the start
		if err != nil {
			t.Fatal(err)
		}
		j := &job{s: &vigil.Sentinel{ID: 1}, plan: &plan{urls: append(known, "http://d.example")}}
		changes := func(ids ...int64) []*vigil.Change {
			var cs []*vigil.Change
			for _, id := range ids {
				cs = append(cs, &vigil.Change{ResourceID: id})
			}
			return cs
		}
		for _, tc := range []struct {
			name    string
			site    bool
			changes []*vigil.Change
			want    []string
		}{
			{name: "known", changes: changes(ids[0], ids[1], ids[0]), want: []string{"http://a.example/x", "http://b.example/y", "http://a.example/x"}},
			{name: "not known", changes: changes(gone.ID, ids[1], unread.ID), want: []string{"http://c.example/z", "http://b.example/y", "http://d.example/"}},
			{name: "unreadable", changes: changes(ids[0], gone.ID+unread.ID+100)},
			{name: "site", site: true, changes: changes(ids[0])},
		} {
			j.plan.site = nil
			if tc.site {
				j.plan.site = &spec.Site{}
			}
			if got := m.changePages(ctx, j, tc.changes); !slices.Equal(got, tc.want) {
				t.Errorf("%s: pages %q, want %q", tc.name, got, tc.want)
			}
		}
	})
}
