package web

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// removingUsers is a store that removes a sentinel using the edited one
// as an edit is about to be saved with them: before each write of
// several sentinels (UpdateSentinels: the edit and its users), the last
// of them, for the first times writes (all of them if times is
// negative). It is a user removed in another tab between the edit's
// recheck of its users and the write.
type removingUsers struct {
	vigil.Store
	times   int
	removed []string // the names of the sentinels it removed
}

func (s *removingUsers) UpdateSentinels(ctx context.Context, list []*vigil.Sentinel) error {
	if len(list) > 1 && s.times != 0 {
		s.times--
		last := list[len(list)-1]
		if err := s.Store.DeleteSentinel(ctx, last.ID); err != nil {
			return err
		}
		s.removed = append(s.removed, last.Name)
	}
	return s.Store.UpdateSentinels(ctx, list)
}

// TestEditAsUserRemoved: a sentinel using the edited one (Using it),
// removed while the edit is being saved with its users, fails the write
// (nothing is saved), and the edit is checked again and saved: the user
// removed constrains it no more, and the others follow it. Before, the
// editor answered the generic error page "Conflict", the source typed
// lost, and the API 409 with no diagnostic, for the user to send the edit
// again. Removals that go on at every write give up after a few: the
// editor shows its form again (422, the source kept) saying which were
// removed, the API answers 409 with that as a diagnostic, and nothing is
// saved. On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestEditAsUserRemoved(t *testing.T) {
	const (
		links = "Create Sentinel links Using http://a.example/one Monitor all links Fetch 1 day"
		edit  = "Create Sentinel links Using http://a.example/two Monitor all links Fetch 1 day"
	)
	users := []string{
		"Create Sentinel k1 Using links Monitor keywords {x} Fetch 1 hour",
		"Create Sentinel k2 Using links Monitor keywords {x} Fetch 1 hour",
		"Create Sentinel k3 Using links Monitor keywords {x} Fetch 1 hour",
		"Create Sentinel k4 Using links Monitor keywords {x} Fetch 1 hour",
	}
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name  string
				api   bool
				times int // removals, one at each write; -1: at every write
				saved bool
			}{
				{"editor, one removed", false, 1, true},
				{"API, one removed", true, 1, true},
				{"editor, removed at every write", false, -1, false},
				{"API, removed at every write", true, -1, false},
			} {
				t.Run(tc.name, func(t *testing.T) {
					ctx := context.Background()
					st := open(t)
					s, u := checkingServer(t, st)
					saved := saveAll(t, s, u, append([]string{links}, users...)...)
					rm := &removingUsers{Store: st, times: tc.times}
					s.Store = rm
					c := newSignedIn(t, s, u)
					path := "/sentinels/" + strconv.FormatInt(saved[0].ID, 10)
					method, body, status := "POST", url.Values{"source": {edit}}.Encode(), 303
					if tc.api {
						b, _ := json.Marshal(map[string]string{"source": edit})
						method, path, body, status = "PUT", "/api/v1"+path, string(b), 200
					}
					if !tc.saved {
						status = 422
						if tc.api {
							status = 409
						}
					}
					got, page := c.do(method, path, body)
					if got != status {
						t.Errorf("%s %s as users are removed: %d, want %d:\n%s", method, path, got, status, page)
					}
					if len(rm.removed) == 0 {
						t.Fatal("no user was removed")
					}
					if tc.saved {
						// The edit saved, with the users left, which follow it.
						if b, err := st.FindSentinelByID(ctx, saved[0].ID); err != nil || !strings.Contains(b.Source, "a.example/two") {
							t.Errorf("links after the edit: %v %v; want it saved", b, err)
						}
						for _, was := range saved[1:] {
							now, err := st.FindSentinelByID(ctx, was.ID)
							switch {
							case was.Name == rm.removed[0]:
								if vigil.ErrorCode(err) != vigil.ENOTFOUND {
									t.Errorf("%s, removed: %v", was.Name, err)
								}
							case err != nil || bytes.Equal(now.Spec, was.Spec) || !strings.Contains(string(now.Spec), "a.example/two"):
								t.Errorf("%s after the edit: %v; want it following links to /two: %s", was.Name, err, now.Spec)
							}
						}
						return
					}
					want := "sentinel links was not saved: sentinels using it were removed while it was being saved (" + strings.Join(rm.removed, ", ") + "); save it again"
					if tc.api {
						var e errorBody
						if err := json.Unmarshal([]byte(page), &e); err != nil {
							t.Fatalf("%s %s: %v %s", method, path, err, page)
						}
						if e.Error.Code != vigil.ECONFLICT || len(e.Error.Diagnostics) != 1 || e.Error.Diagnostics[0].Message != want || e.Error.Message != want {
							t.Errorf("%s %s: %s; want ECONFLICT with one diagnostic saying %q", method, path, page, want)
						}
					} else {
						page = html.UnescapeString(page)
						for _, w := range []string{">" + edit + "</textarea>", want} {
							if !strings.Contains(page, w) {
								t.Errorf("%s %s: the editor does not show %q:\n%s", method, path, w, page)
							}
						}
					}
					// Nothing saved: links and the users left as they were.
					for _, was := range saved {
						now, err := st.FindSentinelByID(ctx, was.ID)
						if vigil.ErrorCode(err) == vigil.ENOTFOUND && strings.Contains(strings.Join(rm.removed, ","), was.Name) {
							continue
						}
						if err != nil || now.Source != was.Source || !bytes.Equal(now.Spec, was.Spec) {
							t.Errorf("%s after the refused edit: %v; want it unchanged", was.Name, err)
						}
					}
				})
			}
		})
	}
}
