package web

import (
	"context"
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// clashStore runs before, once, as a sentinel is first created or
// updated: what another request does between the form's check of the
// name and the store's write.
type clashStore struct {
	vigil.Store
	before func()
}

func (c *clashStore) hook() {
	if f := c.before; f != nil {
		c.before = nil
		f()
	}
}

func (c *clashStore) CreateSentinel(ctx context.Context, s *vigil.Sentinel) error {
	c.hook()
	return c.Store.CreateSentinel(ctx, s)
}

func (c *clashStore) UpdateSentinels(ctx context.Context, list []*vigil.Sentinel) error {
	c.hook()
	return c.Store.UpdateSentinels(ctx, list)
}

// conflictStore refuses every create and update of a sentinel with a
// store's conflict that is not a name taken (a vigil.Error of code
// ECONFLICT, no vigil.SentinelNameTakenError).
type conflictStore struct{ vigil.Store }

// storeConflict is the message of conflictStore's refusal.
const storeConflict = "the sentinel conflicts with something else"

func (conflictStore) CreateSentinel(context.Context, *vigil.Sentinel) error {
	return vigil.Errorf(vigil.ECONFLICT, storeConflict)
}

func (conflictStore) UpdateSentinels(context.Context, []*vigil.Sentinel) error {
	return vigil.Errorf(vigil.ECONFLICT, storeConflict)
}

// TestStoreConflictNotNameClash: a store's conflict on the write of a
// sentinel that is not the refusal of its name (no
// vigil.SentinelNameTakenError) is shown as itself, in the editor and
// through the API, not as a name another sentinel took: the name is not
// marked, and the store's message is not replaced. Before, every
// ECONFLICT of the write was taken for a name taken, which the editor
// showed on the name ("sentinel name gamma is taken: another of your
// sentinels has it").
func TestStoreConflictNotNameClash(t *testing.T) {
	const src = "Create Sentinel gamma Using http://a.example/ Fetch 1 hour"
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	alpha := createChecked(t, s, u, "Create Sentinel alpha Using http://a.example/ Fetch 1 hour")
	s.Store = conflictStore{s.Store}
	c := newSignedIn(t, s, u)
	b, _ := json.Marshal(map[string]string{"source": src})
	form := url.Values{"source": {src}}.Encode()
	edit := "/sentinels/" + strconv.FormatInt(alpha.ID, 10)
	for _, tc := range []struct{ method, path, body string }{
		{"POST", "/sentinels", form},
		{"POST", edit, form},
		{"POST", "/api/v1/sentinels", string(b)},
		{"PUT", "/api/v1" + edit, string(b)},
	} {
		status, got := c.do(tc.method, tc.path, tc.body)
		page := html.UnescapeString(got)
		if !strings.Contains(page, storeConflict) || strings.Contains(page, "is taken") || strings.Contains(page, `aria-invalid="true"`) {
			t.Errorf("%s %s: %d; want the store's conflict %q, not a name taken:\n%s", tc.method, tc.path, status, storeConflict, got)
		}
		if !strings.HasPrefix(tc.path, "/api/") {
			continue
		}
		var e errorBody
		if err := json.Unmarshal([]byte(got), &e); err != nil {
			t.Fatalf("%s %s: %v %s", tc.method, tc.path, err, got)
		}
		if status != 409 || e.Error.Code != vigil.ECONFLICT || e.Error.Message != storeConflict || len(e.Error.Diagnostics) != 0 {
			t.Errorf("%s %s: %d %s; want 409, ECONFLICT, %q and no diagnostics", tc.method, tc.path, status, got, storeConflict)
		}
	}
}

// TestSentinelNameClash: a sentinel named, in the dashboard's editor or
// through the API, with a name that is free when the form checks it, but
// that another of the owner's sentinels takes before the store writes it
// (a rename in another tab), is refused by the store (ECONFLICT), and
// the refusal is shown as the form's other errors are: the editor again,
// 422, the source as typed, and the name marked, saying which sentinel
// has it; the API answers 409 with a diagnostic whose field is name.
// Nothing is saved. Before, the editor answered the generic error page
// "Conflict" (409), the source typed lost, and the API's 409 named no
// field. On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is
// set.
func TestSentinelNameClash(t *testing.T) {
	const src = "Create Sentinel gamma Using http://a.example/ Fetch 1 hour"
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				method string
				edit   bool // the edit of alpha, else a new sentinel
				status int
			}{
				{"editor, rename", "POST", true, 422},
				{"editor, new", "POST", false, 422},
				{"API, rename", "PUT", true, 409},
				{"API, new", "POST", false, 409},
				{"API, rename, JSON form", "PUT", true, 409},
			} {
				t.Run(tc.name, func(t *testing.T) {
					ctx := context.Background()
					st := &clashStore{Store: open(t)}
					s, u := checkingServer(t, st)
					alpha := createChecked(t, s, u, "Create Sentinel alpha Using http://a.example/ Fetch 1 hour")
					beta := createChecked(t, s, u, "Create Sentinel beta Using http://b.example/ Fetch 1 hour")
					// Between the check and the write, beta becomes Gamma.
					st.before = func() {
						renamed := *beta
						renamed.Name, renamed.Source = "Gamma", strings.Replace(beta.Source, "beta", "Gamma", 1)
						if err := st.Store.UpdateSentinels(ctx, []*vigil.Sentinel{&renamed}); err != nil {
							t.Fatal(err)
						}
					}
					c := newSignedIn(t, s, u)
					path := "/sentinels"
					if tc.edit {
						path += "/" + strconv.FormatInt(alpha.ID, 10)
					}
					body := url.Values{"source": {src}}.Encode()
					jsonForm := strings.HasSuffix(tc.name, "JSON form")
					if tc.status == 409 {
						path = "/api/v1" + path
						b, _ := json.Marshal(map[string]string{"source": src})
						if jsonForm {
							sen, err := spec.ParseSentinel("", []byte(src))
							if err != nil {
								t.Fatal(err)
							}
							b, _ = json.Marshal(map[string]any{"sentinel": sen})
						}
						body = string(b)
					}
					status, got := c.do(tc.method, path, body)
					if st.before != nil {
						t.Fatal("the store was not asked to write the sentinel")
					}
					clash := "sentinel name gamma is taken: your sentinel Gamma (sentinel " + strconv.FormatInt(beta.ID, 10) + ") has it; choose another name"
					if status != tc.status {
						t.Errorf("%s %s: %d, want %d:\n%s", tc.method, path, status, tc.status, got)
					}
					if tc.status == 409 {
						var e struct {
							Error struct {
								Code        string
								Message     string
								Diagnostics []Diagnostic
							}
						}
						if err := json.Unmarshal([]byte(got), &e); err != nil {
							t.Fatalf("%s %s: %v %s", tc.method, path, err, got)
						}
						// The name's field, and its place in the
						// source given as text.
						d := e.Error.Diagnostics
						at := len(d) == 1 && d[0].Line == 1 && d[0].Column == 17 && src[d[0].Offset:d[0].End] == "gamma"
						if jsonForm {
							at = len(d) == 1 && d[0].Line == 0 && d[0].Offset == 0 && d[0].End == 0
						}
						if e.Error.Code != vigil.ECONFLICT || !at || d[0].Field != "name" || d[0].Message != clash || !strings.Contains(e.Error.Message, clash) {
							t.Errorf("%s %s: %s; want ECONFLICT with one diagnostic, field name (at 1:17, gamma, in the source), saying %q", tc.method, path, got, clash)
						}
					} else {
						page := html.UnescapeString(got)
						for _, want := range []string{">" + src + "</textarea>", "1:17: " + clash, `aria-invalid="true"`} {
							if !strings.Contains(page, want) {
								t.Errorf("%s %s: the editor does not show %q:\n%s", tc.method, path, want, got)
							}
						}
					}
					// Nothing saved: alpha keeps its name, and no other
					// sentinel was made.
					names := ownerSentinelNames(t, st, u.ID)
					if names != "alpha,Gamma" {
						t.Errorf("sentinels after the refusal: %v; want alpha, Gamma", names)
					}
				})
			}
		})
	}
}

// TestRenameInUseLongS: a sentinel that another uses is not renamed to a
// name that differs in more than its case, even one that
// strings.EqualFold takes for its name: "best" to "beſt" (a long s) left
// the sentinel using best without it, for a later sentinel best to take
// unasked, as the refusal of a rename in use says. Its names are one
// only as vigil.SameSentinelName says, which the checker and the store
// follow; a rename in case alone ("Best") is no rename.
func TestRenameInUseLongS(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	put := func(src string) (int, string) {
		t.Helper()
		b, _ := json.Marshal(map[string]string{"source": src})
		return c.do("POST", "/api/v1/sentinels", string(b))
	}
	if status, body := put("Create Sentinel best Using http://a.example/ Fetch 1 hour"); status != 201 {
		t.Fatalf("create best: %d %s", status, body)
	}
	if status, body := put("Create Sentinel uses Using best Monitor keywords {x}"); status != 201 {
		t.Fatalf("create uses: %d %s", status, body)
	}
	all, _, err := s.Store.FindSentinels(context.Background(), vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil || len(all) != 2 {
		t.Fatalf("sentinels: %v %v", all, err)
	}
	path := "/api/v1/sentinels/" + strconv.FormatInt(all[0].ID, 10)
	for _, tc := range []struct {
		name   string
		status int
		want   string
	}{
		{"Best", 200, `"name": "Best"`},
		{"beſt", 409, "sentinel Best cannot be renamed: it is used by uses"},
	} {
		b, _ := json.Marshal(map[string]string{"source": "Create Sentinel " + tc.name + " Using http://a.example/ Fetch 1 hour"})
		if status, body := c.do("PUT", path, string(b)); status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("PUT %s named %s: %d %s; want %d saying %q", path, tc.name, status, body, tc.status, tc.want)
		}
	}
}

// TestRenameToLongSName: the editor's check of a new name did not see a
// sentinel whose name strings.EqualFold takes for the old one: with
// sentinels best and beſt (a long s; two names, as vigil.SameSentinelName
// says), renaming best to beſt passed the check, for the store to refuse
// it. The check now refuses it as it refuses any name taken, on the form.
func TestRenameToLongSName(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	var best *vigil.Sentinel
	for _, name := range []string{"best", "beſt"} {
		sen, err := s.saveSentinel(context.Background(), u, &sentinelInput{Source: "Create Sentinel " + name + " Using http://a.example/ Fetch 1 hour"}, nil)
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
		if best == nil {
			best = sen
		}
	}
	const src = "Create Sentinel beſt Using http://b.example/ Fetch 1 hour"
	path := "/sentinels/" + strconv.FormatInt(best.ID, 10)
	status, body := c.do("POST", path, url.Values{"source": {src}}.Encode())
	page := html.UnescapeString(body)
	taken := "1:17: sentinel name beſt is taken: your sentinel beſt (sentinel " + strconv.FormatInt(best.ID+1, 10) + ") has it; choose another name"
	for _, want := range []string{">" + src + "</textarea>", taken} {
		if status != 422 || !strings.Contains(page, want) {
			t.Errorf("POST %s renaming best to beſt: %d; want 422 and the editor saying %q:\n%s", path, status, want, body)
		}
	}
}

// TestSentinelNameTakenAtCheck: a name another of the owner's sentinels
// already has, caught by the check before the store, is answered as the
// store's refusal of it is (TestSentinelNameClash): the API 409, ECONFLICT,
// one diagnostic whose field is name, at the name in the source, saying
// which sentinel has it; the editor again, 422, the source kept and the
// name marked. Before, the API answered 400 EINVALID for it, with no
// field, and 409 only when the store refused it. A sentinel with other
// mistakes besides is invalid (400), its name's diagnostic still marked
// name. On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestSentinelNameTakenAtCheck(t *testing.T) {
	const src = "Create Sentinel gamma Using http://a.example/ Fetch 1 hour"
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				method string
				edit   bool // the edit of alpha, else a new sentinel
				src    string
				json   bool // the API, in the sentinel's JSON form
				status int
			}{
				{"editor, rename", "POST", true, src, false, 422},
				{"editor, new", "POST", false, src, false, 422},
				{"API, rename", "PUT", true, src, false, 409},
				{"API, new", "POST", false, src, false, 409},
				{"API, new, JSON form", "POST", false, src, true, 409},
				{"API, rename, JSON form", "PUT", true, src, true, 409},
				{"API, new, another mistake", "POST", false, "Create Sentinel gamma Using nosuch", false, 400},
			} {
				t.Run(tc.name, func(t *testing.T) {
					st := open(t)
					s, u := checkingServer(t, st)
					alpha := createChecked(t, s, u, "Create Sentinel alpha Using http://a.example/ Fetch 1 hour")
					holder := createChecked(t, s, u, "Create Sentinel Gamma Using http://b.example/ Fetch 1 hour")
					c := newSignedIn(t, s, u)
					path := "/sentinels"
					if tc.edit {
						path += "/" + strconv.FormatInt(alpha.ID, 10)
					}
					body := url.Values{"source": {tc.src}}.Encode()
					if tc.status != 422 {
						path = "/api/v1" + path
						b, _ := json.Marshal(map[string]string{"source": tc.src})
						if tc.json {
							sen, err := spec.ParseSentinel("", []byte(tc.src))
							if err != nil {
								t.Fatal(err)
							}
							b, _ = json.Marshal(map[string]any{"sentinel": sen})
						}
						body = string(b)
					}
					status, got := c.do(tc.method, path, body)
					taken := "sentinel name gamma is taken: your sentinel Gamma (sentinel " + strconv.FormatInt(holder.ID, 10) + ") has it; choose another name"
					if status != tc.status {
						t.Errorf("%s %s: %d, want %d:\n%s", tc.method, path, status, tc.status, got)
					}
					switch tc.status {
					case 409:
						var e errorBody
						if err := json.Unmarshal([]byte(got), &e); err != nil {
							t.Fatalf("%s %s: %v %s", tc.method, path, err, got)
						}
						d := e.Error.Diagnostics
						at := len(d) == 1 && d[0].Line == 1 && d[0].Column == 17 && tc.src[d[0].Offset:d[0].End] == "gamma"
						if tc.json {
							at = len(d) == 1 && d[0].Line == 0 && d[0].Offset == 0 && d[0].End == 0
						}
						if e.Error.Code != vigil.ECONFLICT || !at || d[0].Field != "name" || d[0].Message != taken || !strings.Contains(e.Error.Message, taken) {
							t.Errorf("%s %s: %s; want ECONFLICT with one diagnostic, field name (at 1:17, gamma, in the source), saying %q", tc.method, path, got, taken)
						}
					case 400:
						var e errorBody
						if err := json.Unmarshal([]byte(got), &e); err != nil {
							t.Fatalf("%s %s: %v %s", tc.method, path, err, got)
						}
						named := 0
						for _, d := range e.Error.Diagnostics {
							if d.Field == "name" {
								named++
							}
						}
						if e.Error.Code != vigil.EINVALID || len(e.Error.Diagnostics) != 2 || named != 1 {
							t.Errorf("%s %s: %s; want EINVALID with two diagnostics, one of field name", tc.method, path, got)
						}
					default:
						page := html.UnescapeString(got)
						for _, want := range []string{">" + tc.src + "</textarea>", "1:17: " + taken, `aria-invalid="true"`} {
							if !strings.Contains(page, want) {
								t.Errorf("%s %s: the editor does not show %q:\n%s", tc.method, path, want, got)
							}
						}
					}
					names := ownerSentinelNames(t, st, u.ID)
					if names != "alpha,Gamma" {
						t.Errorf("sentinels after the refusal: %v; want alpha, Gamma", names)
					}
				})
			}
		})
	}
}

// TestSentinelNameFreedAfterCheck: a name the check found taken, whose
// holder was removed before the save looked up which sentinel has it, is
// free: the save is tried again, and the sentinel is saved under it, new
// or renamed. Before, the save answered that the name was taken (409 in
// the API), with the check's message, though no sentinel had it any more.
// On SQLite, and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestSentinelNameFreedAfterCheck(t *testing.T) {
	const src = "Create Sentinel gamma Using http://a.example/ Fetch 1 hour"
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, edit := range []bool{false, true} {
				ctx := context.Background()
				st := open(t)
				s, u := checkingServer(t, st)
				alpha := createChecked(t, s, u, "Create Sentinel alpha Using http://a.example/ Fetch 1 hour")
				holder := createChecked(t, s, u, "Create Sentinel Gamma Using http://b.example/ Fetch 1 hour")
				check := s.Checker
				removed := false
				s.Checker = func(ctx context.Context, owner *vigil.User, now time.Time) (*spec.Checker, error) {
					c, err := check(ctx, owner, now)
					if !removed { // another request removes Gamma once the check knows it
						removed = true
						if err := st.DeleteSentinel(ctx, holder.ID); err != nil {
							t.Fatal(err)
						}
					}
					return c, err
				}
				var replacing *vigil.Sentinel
				if edit {
					replacing = alpha
				}
				if _, err := s.saveSentinel(ctx, u, &sentinelInput{Source: src}, replacing); err != nil {
					t.Errorf("save (edit %v) of gamma, Gamma removed after the check: %v; want it saved", edit, err)
				}
				names := ownerSentinelNames(t, st, u.ID)
				want := "alpha,gamma"
				if edit {
					want = "gamma"
				}
				if names != want {
					t.Errorf("sentinels after the save (edit %v): %v; want %s", edit, names, want)
				}
			}
		})
	}
}

// ownerSentinelNames returns the names of owner's sentinels in st, in the
// store's order, joined by commas.
func ownerSentinelNames(t *testing.T, st vigil.Store, owner int64) string {
	t.Helper()
	all, _, err := st.FindSentinels(context.Background(), vigil.SentinelFilter{OwnerID: owner})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(all))
	for i, sen := range all {
		names[i] = sen.Name
	}
	return strings.Join(names, ",")
}
