package spec

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func date(y, m, d, h, min int) time.Time {
	return time.Date(y, time.Month(m), d, h, min, 0, 0, time.UTC)
}

// TestScenarios parses and checks the seed's scenarios s1, s2, s3 (created
// on 11/01/2002, before s1 starts) and compares every resolved value.
func TestScenarios(t *testing.T) {
	src, err := os.ReadFile("testdata/scenarios/webvigil.ssl")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("webvigil.ssl", src)
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(date(2002, 11, 1, 12, 0))
	out, err := c.CheckFile(f)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2, s3 := out[0], out[1], out[2]

	// s1
	if got := Print(s1.Sentinel.Monitor.X); got != "keywords {5331, 5324}" {
		t.Errorf("s1 monitor %q", got)
	}
	if !reflect.DeepEqual(s1.URLs, []string{"http://www.uta.edu/class/schedule"}) {
		t.Errorf("s1 urls %v", s1.URLs)
	}
	if iv := s1.Sentinel.Fetch.Interval; iv == nil || iv.Duration != (Duration{1, Day}) {
		t.Errorf("s1 fetch %v", s1.Sentinel.Fetch)
	}
	if !s1.Start.Equal(date(2002, 12, 2, 0, 0)) || !s1.End.Equal(date(2003, 1, 2, 0, 0)) {
		t.Errorf("s1 lifespan %v - %v", s1.Start, s1.End)
	}
	if n := s1.Sentinel.Notify; len(n.Contacts) != 1 || n.Contacts[0].Kind != Email || n.Contacts[0].Address != "jill@aol.com" {
		t.Errorf("s1 notify %v", Print(n))
	}
	if s1.Sentinel.Every.Mode != BestEffort || s1.Sentinel.Compare.Method != Pairwise {
		t.Errorf("s1 every/compare %v %v", s1.Sentinel.Every.Mode, s1.Sentinel.Compare.Method)
	}
	if s1.Parent != "" || len(s1.Inherited) != 0 || len(s1.Warnings) != 0 {
		t.Errorf("s1 parent %q inherited %v warnings %v", s1.Parent, s1.Inherited, s1.Warnings)
	}

	// s2: correlated with s1 through its events.
	if !reflect.DeepEqual(s2.URLs, []string{"http://www2.uta.edu/sharma/courses/cse5331And4331/Spring2003/General/course_schedule.htm"}) {
		t.Errorf("s2 urls %v", s2.URLs)
	}
	if got := Print(s2.Sentinel.Target); got != s2.URLs[0] {
		t.Errorf("s2 checked target %s, want %s", got, s2.URLs[0])
	}
	b, ok := s2.Sentinel.Monitor.X.(*BinaryExpr)
	if !ok || b.Op != Or || b.X.(*ChangeType).Kind != Words || b.Y.(*ChangeType).Kind != AnyChange {
		t.Errorf("s2 monitor %s", Print(s2.Sentinel.Monitor.X))
	}
	if !s2.Sentinel.Fetch.OnChange {
		t.Error("s2 fetch is not on change")
	}
	if !s2.Start.Equal(s1.Start) || !s2.End.Equal(s1.End) {
		t.Errorf("s2 lifespan %v - %v, want s1's", s2.Start, s2.End)
	}
	if e := s2.Sentinel.Every; e.Mode != Periodic || e.Interval.Duration != (Duration{1, Day}) {
		t.Errorf("s2 every %v", Print(e))
	}
	// The seed writes s2's URL without a scheme: it is read as http, with
	// a warning at the URL, and the checked sentinel holds the URL fetched.
	if len(s2.Warnings) != 2 || s2.Warnings[0].Pos.Line != 15 || s2.Warnings[0].Pos.Column != 7 ||
		!strings.HasPrefix(s2.Warnings[0].Msg, "no scheme: read as http://www2.uta.edu/sharma/") ||
		!strings.Contains(s2.Warnings[1].Msg, "is the same as any change") {
		t.Errorf("s2 warnings %v", s2.Warnings)
	}

	// s3: inherits everything but the change type from s1.
	if s3.Parent != "s1" {
		t.Errorf("s3 parent %q", s3.Parent)
	}
	if want := []string{"Fetch", "From", "To", "Notify", "Every", "Compare"}; !reflect.DeepEqual(s3.Inherited, want) {
		t.Errorf("s3 inherited %v, want %v", s3.Inherited, want)
	}
	if got := Print(s3.Sentinel.Monitor.X); got != `phrase {"Optical Network"}` {
		t.Errorf("s3 monitor %q", got)
	}
	if !reflect.DeepEqual(s3.URLs, s1.URLs) || !s3.Start.Equal(s1.Start) || !s3.End.Equal(s1.End) {
		t.Errorf("s3 urls %v lifespan %v - %v", s3.URLs, s3.Start, s3.End)
	}
	want := "Create Sentinel s3 Using s1\n\tMonitor phrase {\"Optical Network\"}\n\tFetch 1 day\n\tFrom 12/02/2002 To 01/02/2003\n\tNotify By email jill@aol.com\n\tEvery best effort\n\tCompare pairwise\n"
	if got := Print(s3.Sentinel); got != want {
		t.Errorf("complete s3:\n%s\nwant:\n%s", got, want)
	}

	// Scenario 2 created after s1 started: s2 would never start (§5.5, V7).
	c2 := NewChecker(date(2002, 12, 5, 0, 0))
	c2.Add(&Stored{Checked: s1, Started: date(2002, 12, 2, 0, 0)})
	if _, err := c2.Check(f.Sentinels[1]); err == nil || !strings.Contains(err.Error(), "From start(s1) has passed") {
		t.Errorf("s2 after s1 started: %v", err)
	}
}

// TestResolvedTimes checks the lifespans of the valid validation cases of
// the note (§7.8: V2, V4, V8, V10, V17), created at 06/01/2003 12:00.
func TestResolvedTimes(t *testing.T) {
	now := date(2003, 6, 1, 12, 0)
	s1src := "Create Sentinel s1 Using http://a.example From Now To Now + 30 day"
	tests := map[string]struct {
		src        string
		start, end time.Time
	}{
		"V2 offset rescues": {"Create Sentinel x Using http://b.example From 05/01/2003 + 60 day To 12/31/2003", date(2003, 6, 30, 0, 0), date(2003, 12, 31, 0, 0)},
		"V4 now plus":       {"Create Sentinel x Using http://b.example From Now To Now + 1 day", now, date(2003, 6, 2, 12, 0)},
		"V8 started event":  {"Create Sentinel x Using http://b.example From start(s1) + 2 day To end(s1)", date(2003, 6, 2, 12, 0), date(2003, 6, 30, 12, 0)},
		"V10 during":        {"Create Sentinel x Using http://b.example From during(s1) To end(s1) + 1 week", now, date(2003, 7, 7, 12, 0)},
		"V17 inherit now":   {"Create Sentinel x Using s1 Monitor phrase {\"Optical Network\"}", now, date(2003, 7, 1, 12, 0)},
		"default lifespan":  {"Create Sentinel x Using http://b.example From Now + 2 hour", date(2003, 6, 1, 14, 0), date(2004, 6, 1, 14, 0)},
		"clock":             {"Create Sentinel x Using http://b.example From 06/02/2003 09:00 To 06/02/2003 17:30", date(2003, 6, 2, 9, 0), date(2003, 6, 2, 17, 30)},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			c := NewChecker(now)
			base := mustParse(t, s1src).Sentinels[0]
			// s1 was created yesterday and started then.
			c.Now = date(2003, 5, 31, 12, 0)
			ch1, err := c.Check(base)
			if err != nil {
				t.Fatal(err)
			}
			c.Add(&Stored{Checked: ch1, Started: c.Now})
			c.Now = now
			ch, err := c.Check(mustParse(t, tt.src).Sentinels[0])
			if err != nil {
				t.Fatal(err)
			}
			// V17: the inherited "From Now To Now + 30 day" is evaluated at
			// x's creation, not s1's.
			want := tt.end
			if !ch.Start.Equal(tt.start) || !ch.End.Equal(want) {
				t.Errorf("lifespan %v - %v, want %v - %v", ch.Start, ch.End, tt.start, want)
			}
		})
	}
}

// TestIncremental checks a sentinel against stored sentinels reached
// through Lookup, as the daemon does, including cycles between stored
// lifespans and chains resolved recursively (Appendix C).
func TestIncremental(t *testing.T) {
	now := date(2003, 6, 1, 12, 0)
	store := map[string]*Stored{}
	put := func(src string, created time.Time) {
		t.Helper()
		s := mustParse(t, src).Sentinels[0]
		// Stored sentinels were checked when created; build them directly so
		// that a cycle can be planted, with their dates resolved as a check
		// keeps them.
		c := &Checker{Now: created, Lookup: func(n string) *Stored { return store[strings.ToLower(n)] }}
		u, _ := NormalizeURL(s.Target.(*URLTarget).URL)
		ch := &Checked{Sentinel: s, URLs: []string{u}}
		k := &checking{c: c, s: s}
		for _, p := range []struct {
			ts *TimeSpec
			at *time.Time
		}{{s.From, &ch.Start}, {s.To, &ch.End}} {
			if p.ts == nil {
				continue
			}
			if d, ok := p.ts.Base.(*Date); ok {
				*p.at = k.date(d)
			}
		}
		if s.From == nil || s.To == nil {
			out := *s
			k.defaults(&out, ch)
			ch.Sentinel = &out
		}
		store[strings.ToLower(s.Name.Name)] = &Stored{Checked: ch}
	}
	put("Create Sentinel a Using http://a.example From 07/01/2003 To 08/01/2003", now)
	put("Create Sentinel b Using http://b.example From end(a) + 1 day To end(a) + 1 week", now)
	put("Create Sentinel c Using http://c.example From start(d) To 12/01/2003", now)
	put("Create Sentinel d Using http://d.example From start(c) To 12/01/2003", now)

	c := &Checker{Now: now, Lookup: func(n string) *Stored { return store[strings.ToLower(n)] }}
	ch, err := c.Check(mustParse(t, "Create Sentinel x Using b From start(b) To end(b)").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Start.Equal(date(2003, 8, 2, 0, 0)) || !ch.End.Equal(date(2003, 8, 8, 0, 0)) {
		t.Errorf("chained lifespan %v - %v", ch.Start, ch.End)
	}
	if !reflect.DeepEqual(ch.URLs, []string{"http://b.example/"}) || ch.Parent != "b" {
		t.Errorf("urls %v parent %q", ch.URLs, ch.Parent)
	}
	_, err = c.Check(mustParse(t, "Create Sentinel y Using http://y.example From start(c) To 12/01/2003").Sentinels[0])
	if err == nil || !strings.Contains(err.Error(), "cycle in lifespans: y -> c -> d -> c") {
		t.Errorf("cycle: %v", err)
	}
	_, err = c.Check(mustParse(t, "Create Sentinel A Using http://y.example").Sentinels[0])
	if err == nil || !strings.Contains(err.Error(), "sentinel name A is taken: your sentinel a has it; choose another name") {
		t.Errorf("unique through Lookup: %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 1 || e.Pos.Column != 17 || e.Found != "A" || !e.NameTaken {
		t.Errorf("error details %+v", e)
	}
}

func TestDefaults(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), Owner: "jill@aol.com", DefaultLifespan: Duration{2, Week}}
	ch, err := c.Check(mustParse(t, "Create Sentinel x Using http://a.example").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	// The checked sentinel holds the URL fetched, its path "/".
	want := "Create Sentinel x Using http://a.example/\n\tMonitor any change\n\tFetch on change\n\tFrom Now To Now + 2 weeks\n\tNotify By email jill@aol.com\n\tEvery best effort\n\tCompare pairwise\n"
	if got := Print(ch.Sentinel); got != want {
		t.Errorf("defaults:\n%s\nwant\n%s", got, want)
	}
	c.Owner = ""
	ch, err = c.Check(mustParse(t, "Create Sentinel y Using http://a.example").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if ch.Sentinel.Notify != nil || ch.Sentinel.Every.Mode != Interactive {
		t.Errorf("without owner: notify %v every %v", ch.Sentinel.Notify, ch.Sentinel.Every.Mode)
	}
}

// TestUnavailableChannel: a contact of a channel the server cannot use is
// a warning at the contact, and no Notify clause does not default to the
// owner's email when email is that channel.
func TestUnavailableChannel(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), Owner: "jill@aol.com", Unavailable: map[ContactKind]string{Email: "no SMTP relay"}}
	ch, err := c.Check(mustParse(t, "Create Sentinel x Using http://a.example").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if ch.Sentinel.Notify != nil || len(ch.Warnings) != 0 {
		t.Errorf("no Notify clause: notify %v, warnings %v", ch.Sentinel.Notify, ch.Warnings)
	}
	src := "Create Sentinel y Using http://a.example\nNotify By email bob@b.example, webhook https://h.example/x"
	ch, err = c.Check(mustParse(t, src).Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Warnings) != 1 || ch.Warnings[0].Pos.Line != 2 || !strings.Contains(ch.Warnings[0].Msg, "by email will not be sent: no SMTP relay") {
		t.Errorf("warnings %v, want one at the email contact", ch.Warnings)
	}
	if ch.Sentinel.Notify == nil || len(ch.Sentinel.Notify.Contacts) != 2 {
		t.Errorf("the contacts are kept: %v", ch.Sentinel.Notify)
	}
	// An inherited email contact is warned of too, at the Using clause.
	c.Add(&Stored{Checked: ch, Started: c.Now})
	child, err := c.Check(mustParse(t, "Create Sentinel z\nUsing y").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(child.Warnings) != 1 || child.Warnings[0].Pos.Line != 2 || !strings.Contains(child.Warnings[0].Msg, "inherited from y notifies by email") {
		t.Errorf("inherited: warnings %v", child.Warnings)
	}
}

// TestInteractiveWithContacts: Every interactive sends nothing to the
// contacts of Notify; the check says so, once, at the Every clause, and
// not that one channel of them is off here, which would suggest the others
// are sent to. Its child that inherits both is warned the same, at Using.
func TestInteractiveWithContacts(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), Owner: "jill@aol.com", Unavailable: map[ContactKind]string{Email: "no SMTP relay"}}
	src := "Create Sentinel y Using http://a.example\nNotify By email bob@b.example, webhook https://h.example/x\nEvery interactive"
	ch, err := c.Check(mustParse(t, src).Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	const want = "Every interactive sends nothing to the contacts of Notify"
	if len(ch.Warnings) != 1 || ch.Warnings[0].Pos.Line != 3 || ch.Warnings[0].Pos.Column != 1 || !strings.Contains(ch.Warnings[0].Msg, want) {
		t.Errorf("warnings %v, want one at Every (3:1) saying %q", ch.Warnings, want)
	}
	c.Add(&Stored{Checked: ch, Started: c.Now})
	child, err := c.Check(mustParse(t, "Create Sentinel z\nUsing y").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(child.Warnings) != 1 || child.Warnings[0].Pos.Line != 2 || !strings.Contains(child.Warnings[0].Msg, want) {
		t.Errorf("inherited: warnings %v, want one at Using", child.Warnings)
	}
	// Without contacts, interactive is the default and no warning.
	bare, err := c.Check(mustParse(t, "Create Sentinel w Using http://a.example\nEvery interactive").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(bare.Warnings) != 0 {
		t.Errorf("interactive without Notify: warnings %v", bare.Warnings)
	}
}

func TestCheckNeverPanicsOnPartialAST(t *testing.T) {
	f, _ := Parse("p", []byte("Create Sentinel\nCreate Sentinel a Using\nCreate Sentinel b Using http://a.example From start(\nCreate Sentinel c Using http://a.example Monitor NOT"))
	c := NewChecker(date(2003, 6, 1, 12, 0))
	// Their syntax errors are Parse's: none is valid.
	out, _ := c.CheckFile(f)
	for i, ch := range out {
		if ch != nil {
			t.Errorf("sentinel %d, with syntax errors, is valid", i)
		}
	}
	if _, err := c.Check(f.Sentinels[3]); err == nil || !strings.Contains(err.Error(), "incomplete sentinel: it has syntax errors") {
		t.Errorf("Check of a sentinel with syntax errors: %v, want incomplete sentinel", err)
	}
	if _, err := c.Check(nil); err == nil {
		t.Error("nil sentinel: want error")
	}
	if _, err := (&Checker{}).Check(f.Sentinels[2]); err == nil {
		t.Error("zero Now: want error")
	}
	// Hand-built trees with missing parts.
	s := &Sentinel{Name: &Ident{Name: "z"}, Target: &URLTarget{URL: "http://a.example"},
		Monitor: &MonitorClause{X: &BinaryExpr{Op: And, X: &ChangeType{Kind: Links}}},
		From:    &TimeSpec{Base: &Event{Kind: Start}}, To: &TimeSpec{},
		Notify: &NotifyClause{Contacts: []*Contact{nil}}, Fetch: &FetchClause{}}
	if _, err := c.Check(s); err == nil {
		t.Error("hand-built partial tree: want errors")
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d     Duration
		std   time.Duration
		fixed bool
		add   time.Time
	}{
		{Duration{30, Second}, 30 * time.Second, true, date(2003, 1, 31, 0, 0).Add(30 * time.Second)},
		{Duration{2, Hour}, 2 * time.Hour, true, date(2003, 1, 31, 2, 0)},
		{Duration{1, Day}, 24 * time.Hour, true, date(2003, 2, 1, 0, 0)},
		{Duration{1, Week}, 7 * 24 * time.Hour, true, date(2003, 2, 7, 0, 0)},
		{Duration{1, Month}, 0, false, date(2003, 2, 28, 0, 0)}, // Jan 31 + 1 month: the last day of February, where time.AddDate gives Mar 3
	}
	for _, tt := range tests {
		std, ok := tt.d.Std()
		if std != tt.std || ok != tt.fixed {
			t.Errorf("%v.Std() = %v, %v", tt.d, std, ok)
		}
		if got := tt.d.AddTo(date(2003, 1, 31, 0, 0)); !got.Equal(tt.add) {
			t.Errorf("%v.AddTo = %v, want %v", tt.d, got, tt.add)
		}
		back, err := ParseDuration(tt.d.String())
		if err != nil || back != tt.d {
			t.Errorf("ParseDuration(%q) = %v, %v", tt.d.String(), back, err)
		}
	}
	if _, ok := (Duration{1 << 62, Hour}).Std(); ok {
		t.Error("overflow not detected")
	}
	if got := (Duration{1 << 62, Week}).AddTo(date(2003, 1, 1, 0, 0)); got.Year() < 4000 {
		t.Errorf("huge AddTo = %v", got)
	}
	for _, bad := range []string{"1", "x day", "1 year", "1 day extra"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q): want error", bad)
		}
	}
}

func TestCheckReplace(t *testing.T) {
	c := NewChecker(date(2003, 6, 1, 12, 0))
	f := mustParse(t, "Create Sentinel a Using http://a.example From Now + 1 day To Now + 9 day\nCreate Sentinel b Using http://b.example From start(a) To end(a)")
	if _, err := c.CheckFile(f); err != nil {
		t.Fatal(err)
	}
	edit := mustParse(t, "Create Sentinel a Using http://a.example/new From Now + 2 day To Now + 9 day").Sentinels[0]
	if _, err := c.Check(edit); err == nil {
		t.Error("Check of an edit: want a uniqueness error")
	}
	if ch, err := c.CheckReplace("a", edit); err != nil || ch.URLs[0] != "http://a.example/new" {
		t.Errorf("CheckReplace: %v", err)
	}
	cyclic := mustParse(t, "Create Sentinel a Using http://a.example From start(b) To Now + 9 day").Sentinels[0]
	if _, err := c.CheckReplace("a", cyclic); err == nil || !strings.Contains(err.Error(), "cycle in lifespans: a -> b -> a") {
		t.Errorf("CheckReplace with a cycle: %v", err)
	}
	if c.lookup("a") == nil {
		t.Error("CheckReplace forgot the stored sentinel")
	}
}

// TestCheckReplaceLongS: an edit of sentinel best that renames it beſt
// (a long s), a name another stored sentinel has, is refused as not
// unique: CheckReplace leaves the edited sentinel out of Lookup by its
// name's lower case, as the known map keys names, not by
// strings.EqualFold, which took beſt for best and let the edit through.
// Both ways a checker knows sentinels, the known map and Lookup.
func TestCheckReplaceLongS(t *testing.T) {
	now := date(2003, 6, 1, 12, 0)
	stored := map[string]*Stored{}
	for _, name := range []string{"best", "beſt"} {
		ch, err := NewChecker(now).Check(mustParse(t, "Create Sentinel "+name+" Using http://a.example").Sentinels[0])
		if err != nil {
			t.Fatal(err)
		}
		stored[strings.ToLower(name)] = &Stored{Checked: ch}
	}
	edit := mustParse(t, "Create Sentinel beſt Using http://b.example").Sentinels[0]
	for _, tc := range []struct {
		name string
		c    *Checker
	}{
		{"Lookup", &Checker{Now: now, Lookup: func(name string) *Stored { return stored[strings.ToLower(name)] }}},
		{"known", func() *Checker {
			c := NewChecker(now)
			for _, st := range stored {
				c.Add(st)
			}
			return c
		}()},
	} {
		if _, err := tc.c.CheckReplace("best", edit); err == nil || !strings.Contains(err.Error(), "sentinel name beſt is taken: your sentinel beſt has it; choose another name") {
			t.Errorf("%s: CheckReplace of best renamed beſt: %v; want taken", tc.name, err)
		}
		if _, err := tc.c.CheckReplace("Best", mustParse(t, "Create Sentinel BEST Using http://b.example").Sentinels[0]); err != nil {
			t.Errorf("%s: CheckReplace of best renamed BEST: %v", tc.name, err)
		}
	}
}

// storingChecker returns store and check: check checks a sentinel with
// a checker whose Lookup reads store, and keeps it in store by name
// through its JSON form, as a store keeps it; the form must give back its
// URLs, alternatives and site.
func storingChecker(t *testing.T, now time.Time) (map[string]*Stored, func(src string) *Checked) {
	store := map[string]*Stored{}
	c := &Checker{Now: now, Lookup: func(n string) *Stored { return store[strings.ToLower(n)] }}
	return store, func(src string) *Checked {
		t.Helper()
		ch, err := c.Check(mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		b, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		var back Checked
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: decode %s: %v", src, b, err)
		}
		if !reflect.DeepEqual(back.URLs, ch.URLs) || !reflect.DeepEqual(back.Requires, ch.Requires) || !reflect.DeepEqual(back.Site, ch.Site) {
			t.Errorf("%s: JSON round trip: %v %v %+v, want %v %v %+v", src, back.URLs, back.Requires, back.Site, ch.URLs, ch.Requires, ch.Site)
		}
		store[strings.ToLower(ch.Sentinel.Name.Name)] = &Stored{Checked: &back}
		return ch
	}
}

// TestRequires checks the Using clause's alternatives: pages that must all
// change, distributed over ORs, through a sentinel used as a target, and
// kept by the JSON form.
func TestRequires(t *testing.T) {
	_, check := storingChecker(t, date(2003, 6, 1, 12, 0))
	for _, tt := range []struct {
		src      string
		urls     []string
		requires [][]int
	}{
		{"Create Sentinel one Using http://a.example", []string{"http://a.example/"}, nil},
		{"Create Sentinel either Using http://a.example OR http://b.example", []string{"http://a.example/", "http://b.example/"}, nil},
		{"Create Sentinel both Using http://a.example AND http://b.example", []string{"http://a.example/", "http://b.example/"}, [][]int{{0, 1}}},
		{"Create Sentinel mixed Using (http://a.example OR http://b.example) AND http://c.example",
			[]string{"http://a.example/", "http://b.example/", "http://c.example/"}, [][]int{{0, 2}, {1, 2}}},
		{"Create Sentinel absorb Using http://a.example OR (http://a.example AND http://b.example)",
			[]string{"http://a.example/", "http://b.example/"}, [][]int{{0}}},
		// A sentinel as a target brings its alternatives, renumbered.
		{"Create Sentinel more Using http://d.example OR both", []string{"http://d.example/", "http://a.example/", "http://b.example/"}, [][]int{{0}, {1, 2}}},
		{"Create Sentinel again Using both", []string{"http://a.example/", "http://b.example/"}, [][]int{{0, 1}}},
		// Renumbered out of order, and repeated: each page once per set.
		{"Create Sentinel order Using http://b.example AND both", []string{"http://b.example/", "http://a.example/"}, [][]int{{0, 1}}},
		{"Create Sentinel order2 Using (http://b.example OR http://a.example) AND both", []string{"http://b.example/", "http://a.example/"}, [][]int{{0, 1}}},
	} {
		ch := check(tt.src)
		if !reflect.DeepEqual(ch.URLs, tt.urls) || !reflect.DeepEqual(ch.Requires, tt.requires) {
			t.Errorf("%s: urls %v requires %v, want %v %v", tt.src, ch.URLs, ch.Requires, tt.urls, tt.requires)
		}
	}

	// A sentinel stored before Requires existed has it derived from its
	// Using clause.
	old := check("Create Sentinel legacy Using http://c.example AND (http://d.example OR http://c.example)")
	old.Requires = nil
	if got := old.Alternatives(); !reflect.DeepEqual(got, [][]int{{0}}) {
		t.Errorf("derived alternatives %v, want [[0]] (c AND (d OR c) is c)", got)
	}
	old = check("Create Sentinel legacy2 Using http://c.example AND http://d.example")
	old.Requires = nil
	if got := old.Alternatives(); !reflect.DeepEqual(got, [][]int{{0, 1}}) {
		t.Errorf("derived alternatives %v, want [[0 1]]", got)
	}

	// Requires pointing outside urls is refused when decoding.
	var bad Checked
	err := json.Unmarshal([]byte(`{"name":"x","using":{"url":"http://a.example"},"urls":["http://a.example"],"requires":[[0,3]]}`), &bad)
	if err == nil || !strings.Contains(err.Error(), "requires[0]") {
		t.Errorf("requires out of range: %v", err)
	}
}

// TestCompileSelector checks that the checker reports what its
// CompileSelector hook finds, at the column of the mistake inside the
// quoted expression, and leaves alone what the hook accepts.
func TestCompileSelector(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), CompileSelector: func(lang SelectorLang, expr string) (int, error) {
		if i := strings.Index(expr, "!"); i >= 0 {
			return i + 1, errors.New("unexpected !")
		}
		return 0, nil
	}}
	src := "Create Sentinel s Using http://a.example\n  Monitor all words In css \"div!p\" Ignore xpath \"//x\""
	_, err := c.Check(mustParse(t, src).Sentinels[0])
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 2 || e.Pos.Column != 32 || !strings.Contains(e.Msg, `invalid css selector "div!p": unexpected !`) {
		t.Fatalf("error %v (%+v), want line 2 column 32", err, e)
	}
	if _, err := c.Check(mustParse(t, "Create Sentinel t Using http://a.example Monitor all words In css \"div p\"").Sentinels[0]); err != nil {
		t.Errorf("an accepted selector: %v", err)
	}
}

// TestCompileSelectorColumn: the hook's column counts runes of the
// unquoted expression, the error's column runes of the source (its offset
// bytes), past an opening quote of any width and the escapes before the
// mistake.
func TestCompileSelectorColumn(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), CompileSelector: func(lang SelectorLang, expr string) (int, error) {
		if i := strings.Index(expr, "!"); i >= 0 {
			return utf8.RuneCountInString(expr[:i]) + 1, errors.New("unexpected !")
		}
		if strings.HasSuffix(expr, ">") {
			return utf8.RuneCountInString(expr) + 1, errors.New("unexpected end")
		}
		return 0, nil
	}}
	const line1 = "Create Sentinel s Using http://a.example\n"
	for name, tc := range map[string]struct {
		sel  string // the selector as written, after "In css "
		want int    // the byte column of the mistake: "!" or the closing quote
	}{
		"ascii":            {`"a b!c"`, 30},
		"accents":          {`"ééé >!x"`, 35},
		"typographic":      {`“p >!q”`, 32},
		"typographic é":    {`“é >!q”`, 33},
		"escaped é":        {`"\u00e9 >!x"`, 35},
		"escaped quotes":   {`"a[x=\"y\"]!"`, 37},
		"byte escapes":     {`"\xc3\xa9!"`, 35},
		"octal and \\n":    {`"\303\251\n!"`, 37},
		"at the end":       {`"é >"`, 31},
		"typographic end":  {`“é >”`, 33},
		"escapes then end": {`"\u00e9 >"`, 35},
	} {
		line := "Monitor all words In css " + tc.sel
		_, err := c.Check(mustParse(t, line1+line).Sentinels[0])
		var e *Error
		if col := utf8.RuneCountInString(line[:tc.want-1]) + 1; !errors.As(err, &e) || e.Pos.Line != 2 || e.Pos.Column != col {
			t.Errorf("%s: %s: error %v, want line 2 column %d", name, tc.sel, err, col)
			continue
		}
		if at := line[tc.want-1:]; e.Pos.Offset != len(line1)+tc.want-1 ||
			!(strings.HasPrefix(at, "!") || at == `"` || at == "”") {
			t.Errorf("%s: %s: offset %d, column %d points at %q", name, tc.sel, e.Pos.Offset, e.Pos.Column, at)
		}
	}
}

// TestCheckChat: the checker reports what its CheckChat hook finds about a
// chat URL, at the contact, as the hook words it (naming the URL, its
// secrets hidden: chat.Check), and leaves the others alone; it was
// wrapped in "chat URL slack://... cannot be used: ", which said the URL
// twice once the hook named it.
func TestCheckChat(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0), CheckChat: func(url string) error {
		if strings.HasPrefix(url, "slack:") {
			return errors.New(`chat URL "slack://***@x": no channel`)
		}
		return nil
	}}
	src := "Create Sentinel s Using http://a.example\n  Monitor any change Notify By slack://token@x, ntfy://ntfy.example/t"
	_, err := c.Check(mustParse(t, src).Sentinels[0])
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 2 || e.Pos.Column != 32 || e.Msg != `chat URL "slack://***@x": no channel` {
		t.Fatalf("error %v (%+v), want line 2 column 32", err, e)
	}
	if _, err := c.Check(mustParse(t, "Create Sentinel t Using http://a.example Monitor any change Notify By ntfy://ntfy.example/t").Sentinels[0]); err != nil {
		t.Errorf("an accepted chat URL: %v", err)
	}
	// Stored when the hook accepted it, checked again: warned, not refused.
	ch, err := c.RecheckStored("s", mustParse(t, src).Sentinels[0])
	if err != nil || len(ch.Warnings) != 1 || ch.Warnings[0].Msg != `chat URL "slack://***@x": no channel` {
		t.Errorf("checked again: %v, warnings %v", err, ch)
	}
}

// TestNormalizeURLHosts: an internationalised host becomes its punycode,
// the only form a fetch can reach; ports and IPv6 literals survive.
func TestNormalizeURLHosts(t *testing.T) {
	for in, want := range map[string]string{
		"http://bücher.example/x": "http://xn--bcher-kva.example/x",
		"Bücher.Example:8080/":    "http://xn--bcher-kva.example:8080/",
		"https://[::1]:8443/a":    "https://[::1]:8443/a",
		"http://EXAMPLE.com":      "http://example.com/",
		// The default port and an empty path have one spelling.
		"http://a.example:80":        "http://a.example/",
		"HTTP://A.example:80/x":      "http://a.example/x",
		"https://a.example:443/x?q":  "https://a.example/x?q",
		"https://[::1]:443":          "https://[::1]/",
		"http://a.example:":          "http://a.example/",
		"a.example?q=1":              "http://a.example/?q=1",
		"http://a.example:443/":      "http://a.example:443/",
		"https://a.example:80/":      "https://a.example:80/",
		"http://a.example:8080":      "http://a.example:8080/",
		"http://bücher.example:80/x": "http://xn--bcher-kva.example/x",
		// ASCII names DNS takes that the IDNA rules would refuse.
		"http://my_host.example/":              "http://my_host.example/",
		"https://r3---sn-abc.googlevideo.com/": "https://r3---sn-abc.googlevideo.com/",
		"http://-a.example/":                   "http://-a.example/",
	} {
		if got, err := NormalizeURL(in); err != nil || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestNormalizeURLRejects: http or https written without its "//" (or
// without its ":") was taken for a host name, "http:/a.example/" becoming
// http://http/a.example/, a page no fetch can reach; a port outside 1 to
// 65535 was kept, for a fetch that cannot dial it.
func TestNormalizeURLRejects(t *testing.T) {
	for in, want := range map[string]string{
		"http:/a.example/":   `invalid URL "http:/a.example/": write the scheme as http:// before the host`,
		"HTTPS:a.example/x":  `invalid URL "HTTPS:a.example/x": write the scheme as https:// before the host`,
		"https//a.example/":  `invalid URL "https//a.example/": write the scheme as https:// before the host`,
		"http:a.example":     `invalid URL "http:a.example": write the scheme as http:// before the host`,
		"a.example:65536/":   `invalid URL "a.example:65536/": port 65536 out of range (1 to 65535)`,
		"http://a.example:0": `invalid URL "http://a.example:0": port 0 out of range (1 to 65535)`,
		"http://[::1]:99999": `invalid URL "http://[::1]:99999": port 99999 out of range (1 to 65535)`,
	} {
		if got, err := NormalizeURL(in); err == nil || err.Error() != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want error %q", in, got, err, want)
		}
	}
	// Host and port, and names that look like a scheme, stay pages.
	for in, want := range map[string]string{
		"localhost:8080":        "http://localhost:8080/",
		"a.example:65535/x":     "http://a.example:65535/x",
		"http.example/x":        "http://http.example/x",
		"https.example:8443/":   "http://https.example:8443/",
		"httpd.example/x":       "http://httpd.example/x",
		"a.example/http:/x":     "http://a.example/http:/x",
		"a.example/x?u=http:/y": "http://a.example/x?u=http:/y",
	} {
		if got, err := NormalizeURL(in); err != nil || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestCheckReplaceKeepsLifespan: an edit keeps the From and To it writes
// the same, as they were resolved: a From that has passed is no error (the
// sentinel started on it), and To Now + 30 day does not move to 30 days
// after the edit. A clause written otherwise is resolved and checked anew.
func TestCheckReplaceKeepsLifespan(t *testing.T) {
	created := date(2026, 1, 4, 12, 0)
	c := NewChecker(created)
	src := func(monitor, to string) *Sentinel {
		return mustParse(t, "Create Sentinel a Using http://a.example Monitor "+monitor+" From 01/05/2026"+to).Sentinels[0]
	}
	first, err := c.Check(src("any change", " To Now + 30 day"))
	if err != nil {
		t.Fatal(err)
	}
	// Stored as the store keeps it: in its JSON form.
	js, err := first.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var stored Checked
	if err := stored.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	c.Add(&Stored{Checked: &stored, Started: date(2026, 1, 5, 0, 0)})
	c.Now = date(2026, 1, 20, 9, 0)
	ch, err := c.CheckReplace("a", src("all words", " To Now + 30 day"))
	if err != nil {
		t.Fatalf("an edit of Monitor only: %v", err)
	}
	if !ch.Start.Equal(first.Start) || !ch.End.Equal(first.End) {
		t.Errorf("an edit of Monitor only: %v - %v, want %v - %v", ch.Start, ch.End, first.Start, first.End)
	}
	ch, err = c.CheckReplace("a", src("any change", " To Now + 40 day"))
	if err != nil || !ch.End.Equal(c.Now.AddDate(0, 0, 40)) {
		t.Errorf("a new To: %v, end %v", err, ch.End)
	}
	if _, err := c.CheckReplace("a", mustParse(t, "Create Sentinel a Using http://a.example From 01/06/2026").Sentinels[0]); err == nil || !strings.Contains(err.Error(), "From 01/06/2026 has passed") {
		t.Errorf("another From that has passed: %v", err)
	}
	if _, err := c.Check(mustParse(t, "Create Sentinel z Using http://a.example From 01/05/2026").Sentinels[0]); err == nil {
		t.Error("a new sentinel whose From has passed: no error")
	}
}

// TestNoRender: a sentinel that says Fetch ... render, on a server that
// cannot render, is valid with a warning at its Fetch clause (its checks
// failed with nothing said when it was saved).
func TestNoRender(t *testing.T) {
	c := &Checker{Now: date(2026, 1, 1, 0, 0), NoRender: "no Chromium at /usr/bin/chromium"}
	ch, err := c.Check(mustParse(t, "Create Sentinel r Using http://a.example\nFetch 1 day render").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Warnings) != 1 || ch.Warnings[0].Pos.Line != 2 || !strings.Contains(ch.Warnings[0].Msg, "cannot render pages (no Chromium at /usr/bin/chromium)") {
		t.Errorf("warnings %v", ch.Warnings)
	}
	ch, err = c.Check(mustParse(t, "Create Sentinel p Using http://a.example\nFetch 1 day").Sentinels[0])
	if err != nil || len(ch.Warnings) != 0 {
		t.Errorf("without render: %v, warnings %v", err, ch.Warnings)
	}
}

// TestInheritSkipsDefaults: a sentinel Using another inherits what that
// one states or inherits, not the defaults it was given: a child that adds
// a Notify clause is pushed its changes (it was kept interactive, its
// email never sent), and one with its own From ends a lifespan after it.
// A parent stored before Checked kept its Defaulted list is read the same
// way: its Every and To are recognised as defaults by their value.
func TestInheritSkipsDefaults(t *testing.T) {
	now := date(2026, 1, 1, 0, 0)
	src := "Create Sentinel a Using http://a.example\n" +
		"Create Sentinel b Using a Notify By email me@example.org From 03/01/2026\n" +
		"Create Sentinel c Using a Fetch 1 day\n" +
		"Create Sentinel d Using c Notify By email me@example.org\n" +
		"Create Sentinel p Using http://p.example Every interactive Compare every 3 To 06/01/2026\n" +
		"Create Sentinel q Using p Notify By email me@example.org\n"
	check := func(t *testing.T, c *Checker, f *File) map[string]*Checked {
		t.Helper()
		out, err := c.CheckFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*Checked{}
		for _, ch := range out {
			m[ch.Sentinel.Name.Name] = ch
		}
		return m
	}
	wantB := func(t *testing.T, b *Checked) {
		t.Helper()
		if b.Sentinel.Every.Mode != BestEffort || slices.Contains(b.Inherited, "Every") {
			t.Errorf("b: every %v, inherited %v; want best effort, not inherited", b.Sentinel.Every.Mode, b.Inherited)
		}
		if want := date(2027, 3, 1, 0, 0); !b.End.Equal(want) || Print(b.Sentinel.To) != "03/01/2026 + 12 months" {
			t.Errorf("b: %s, ends %v; want To 03/01/2026 + 12 months, %v", Print(b.Sentinel.To), b.End, want)
		}
	}
	c := NewChecker(now)
	m := check(t, c, mustParse(t, src))
	wantB(t, m["b"])
	if got := m["a"].Defaulted; !reflect.DeepEqual(got, []string{"Monitor", "Fetch", "From", "To", "Every", "Compare"}) {
		t.Errorf("a defaulted %v", got)
	}
	// What a parent inherited, its child inherits in turn.
	if d := m["d"]; !slices.Contains(d.Inherited, "Fetch") || d.Sentinel.Every.Mode != BestEffort {
		t.Errorf("d: inherited %v, every %v; want Fetch inherited through c, best effort", d.Inherited, d.Sentinel.Every.Mode)
	}
	// What a parent states is inherited, defaults or not.
	if q := m["q"]; q.Sentinel.Every.Mode != Interactive || q.Sentinel.Compare.N != 3 || !q.End.Equal(date(2026, 6, 1, 0, 0)) {
		t.Errorf("q: every %v, compare %v, end %v; want p's stated clauses", q.Sentinel.Every.Mode, q.Sentinel.Compare, q.End)
	}

	// The same parent as stored before Defaulted was kept.
	data, err := json.Marshal(m["a"])
	if err != nil {
		t.Fatal(err)
	}
	legacy := strings.Replace(string(data), `"defaulted":["Monitor","Fetch","From","To","Every","Compare"],`, "", 1)
	if legacy == string(data) {
		t.Fatalf("no defaulted member in %s", data)
	}
	var a Checked
	if err := json.Unmarshal([]byte(legacy), &a); err != nil {
		t.Fatal(err)
	}
	c2 := NewChecker(now)
	c2.Add(&Stored{Checked: &a})
	m2 := check(t, c2, mustParse(t, "Create Sentinel b Using a Notify By email me@example.org From 03/01/2026"))
	wantB(t, m2["b"])
}

// TestDefaultToReportsNothingOfItsOwn: a To the user did not write is not
// blamed for what is wrong with From.
func TestDefaultToReportsNothingOfItsOwn(t *testing.T) {
	for _, src := range []string{
		"Create Sentinel a Using http://a.example From end(zz)",
		"Create Sentinel a Using http://a.example From 01/01/2021",
	} {
		_, err := NewChecker(date(2026, 1, 1, 0, 0)).CheckFile(mustParse(t, src))
		var el ErrorList
		if !errors.As(err, &el) || len(el) != 1 {
			t.Errorf("%s: %v, want one error, at From", src, err)
		}
	}
}

// TestIntervalsTooLongInherited: an interval too long for the monitor is
// refused in a clause inherited from a sentinel stored before the rule, at
// the target, while that stored sentinel still reads back from its JSON
// form.
func TestIntervalsTooLongInherited(t *testing.T) {
	old := mustParse(t, "Create Sentinel p Using http://a.example Confirm after 20000 week").Sentinels[0]
	data, err := json.Marshal(&Checked{Sentinel: old, URLs: []string{"http://a.example/"}})
	if err != nil {
		t.Fatal(err)
	}
	var stored Checked
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatalf("a stored sentinel with Confirm after 20000 week does not read back: %v", err)
	}
	c := &Checker{Now: date(2003, 6, 1, 12, 0), Lookup: func(n string) *Stored {
		if strings.EqualFold(n, "p") {
			return &Stored{Checked: &stored}
		}
		return nil
	}}
	_, err = c.Check(mustParse(t, "Create Sentinel c Using p").Sentinels[0])
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 1 || e.Pos.Column != 25 || e.Msg != "Confirm after 20000 weeks is longer than Vigil can count (about 292 years)" {
		t.Errorf("inherited Confirm: %v (%+v), want it at 1:25", err, e)
	}
}

// TestURLsStoredBeforeNormalForm: a sentinel stored while NormalizeURL
// kept "http://a.example" (no "/", a default port) keeps its meaning: its
// AND is derived over its old URLs, and a sentinel using it names each
// page once, in the present form.
func TestURLsStoredBeforeNormalForm(t *testing.T) {
	var legacy Checked
	err := json.Unmarshal([]byte(`{"name":"legacy","using":{"and":[{"url":"http://a.example"},{"url":"http://b.example:80"}]},`+
		`"urls":["http://a.example","http://b.example:80"]}`), &legacy)
	if err != nil {
		t.Fatal(err)
	}
	if got := legacy.Alternatives(); !reflect.DeepEqual(got, [][]int{{0, 1}}) {
		t.Errorf("alternatives of a stored a AND b: %v, want [[0 1]]", got)
	}
	now := date(2003, 6, 1, 12, 0)
	c := &Checker{Now: now, Lookup: func(n string) *Stored {
		if strings.EqualFold(n, "legacy") {
			return &Stored{Checked: &legacy}
		}
		return nil
	}}
	ch, err := c.Check(mustParse(t, "Create Sentinel s Using legacy OR http://a.example:80/").Sentinels[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a.example/", "http://b.example/"}; !reflect.DeepEqual(ch.URLs, want) || !reflect.DeepEqual(ch.Requires, [][]int{{0}}) {
		t.Errorf("urls %v requires %v, want %v [[0]]", ch.URLs, ch.Requires, want)
	}
}

// TestEmptyValueColumn: an empty value in a list is reported where it is
// written, not at the change type that holds it.
func TestEmptyValueColumn(t *testing.T) {
	for _, tc := range []struct {
		src string
		col int
	}{
		{"Create Sentinel x Using http://a.example\nMonitor keywords {a, \"\"}", 22},
		{"Create Sentinel x Using http://a.example\nMonitor phrase {\"a b\", \"  \"}", 24},
		{"Create Sentinel x Using http://a.example\nMonitor all words except {\"\"}", 27},
	} {
		_, err := NewChecker(date(2003, 6, 1, 12, 0)).Check(mustParse(t, tc.src).Sentinels[0])
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "empty value") || e.Pos.Line != 2 || e.Pos.Column != tc.col {
			t.Errorf("%q: error %v (%+v), want an empty value at line 2 column %d", tc.src, err, e, tc.col)
		}
	}
}

// TestStoredAlternativesUnderLaterRules: a sentinel stored before Requires
// existed, with an AND over a URL a later rule refuses (a host DNS
// refuses, a port out of range), has its alternatives derived as before:
// both pages must change. NormalizeURL, strict, refused the URL, and the
// sentinel reported when either page changed.
func TestStoredAlternativesUnderLaterRules(t *testing.T) {
	for name, a := range map[string]string{
		"empty label":       "http://a..example/",
		"two trailing dots": "http://a.example../",
		"port":              "http://a.example:99999/",
	} {
		var c Checked
		doc := `{"name":"s","using":{"and":[{"url":"` + a + `"},{"url":"http://b.example/"}]},"urls":["` + a + `","http://b.example/"]}`
		if err := json.Unmarshal([]byte(doc), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := c.Alternatives(); !reflect.DeepEqual(got, [][]int{{0, 1}}) {
			t.Errorf("%s: alternatives of a stored %s AND b: %v, want [[0 1]]", name, a, got)
		}
	}
}

// TestSite checks that a site target resolves to Checked.Site, defaults
// filled in, that a sentinel using one watches the same site, and that
// both survive the JSON form a store keeps.
func TestSite(t *testing.T) {
	store, check := storingChecker(t, date(2003, 6, 1, 12, 0))
	for _, tt := range []struct {
		src  string
		site *Site
	}{
		{"Create Sentinel page Using http://a.example", nil},
		{"Create Sentinel docs Using site HTTPS://Docs.example:443 depth 1", &Site{URL: "https://docs.example/", Depth: 1, Pages: DefaultSitePages}},
		{"Create Sentinel all Using site docs.example/guide/ pages 7", &Site{URL: "http://docs.example/guide/", Depth: DefaultSiteDepth, Pages: 7}},
		{"Create Sentinel child Using docs Monitor all links", &Site{URL: "https://docs.example/", Depth: 1, Pages: DefaultSitePages}},
		{"Create Sentinel grandchild Using child", &Site{URL: "https://docs.example/", Depth: 1, Pages: DefaultSitePages}},
		// Scopes in normal form, once each, in the order written.
		{`Create Sentinel scoped Using site docs.example/guide/ scope HTTP://Docs.example:80/api scope docs.example/ scope http://docs.example/api match "\\.html$"`,
			&Site{URL: "http://docs.example/guide/", Depth: DefaultSiteDepth, Pages: DefaultSitePages, Scope: []string{"http://docs.example/api", "http://docs.example/"}, Match: `\.html$`}},
		{"Create Sentinel scopedChild Using scoped", &Site{URL: "http://docs.example/guide/", Depth: DefaultSiteDepth, Pages: DefaultSitePages, Scope: []string{"http://docs.example/api", "http://docs.example/"}, Match: `\.html$`}},
	} {
		ch := check(tt.src)
		if !reflect.DeepEqual(ch.Site, tt.site) {
			t.Errorf("%s: site %+v, want %+v", tt.src, ch.Site, tt.site)
		}
		if tt.site != nil && (!reflect.DeepEqual(ch.URLs, []string{tt.site.URL}) || ch.Requires != nil) {
			t.Errorf("%s: urls %v requires %v, want [%s] and none", tt.src, ch.URLs, ch.Requires, tt.site.URL)
		}
	}
	if got := store["grandchild"].Sentinel.Monitor; got == nil || Print(got.X) != "all links" {
		t.Errorf("grandchild's Monitor clause %v, want all links inherited", got)
	}
	// A site stored with bounds out of range, or with several URLs, is
	// refused when decoding.
	var bad Checked
	err := json.Unmarshal([]byte(`{"name":"x","using":{"site":{"url":"http://a.example"}},"urls":["http://a.example/"],"site":{"url":"http://a.example/","depth":1,"pages":0}}`), &bad)
	if err == nil || !strings.Contains(err.Error(), "site") {
		t.Errorf("site with 0 pages: %v", err)
	}
	err = json.Unmarshal([]byte(`{"name":"x","using":{"site":{"url":"http://a.example"}},"urls":["http://a.example/"],"site":{"url":"http://a.example/","depth":1,"pages":1,"match":"a("}}`), &bad)
	if err == nil || !strings.Contains(err.Error(), "site.match") {
		t.Errorf("site with a match that does not compile: %v", err)
	}
	// The scope and the match survive the stored form.
	data, err := json.Marshal(store["scoped"].Checked)
	if err != nil {
		t.Fatal(err)
	}
	var back Checked
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Site, store["scoped"].Site) {
		t.Errorf("stored site %+v, want %+v", back.Site, store["scoped"].Site)
	}
}

// TestSiteScopeErrorPlace checks that a bad scope or match is reported at
// the literal that holds it, line and column, in the source and in the
// JSON form.
func TestSiteScopeErrorPlace(t *testing.T) {
	for _, tc := range []struct {
		src  string
		col  int
		want string
	}{
		{`Create Sentinel x Using site http://a.example/ match "a(b"`, 54, "site match: error parsing regexp"},
		{`Create Sentinel x Using site http://a.example/ scope a.example/ scope mailto:x@a.example`, 71, "site scope: invalid URL"},
		{`Create Sentinel x Using site http://a.example/ scope a..example/`, 54, `site scope: invalid URL "a..example/": host "a..example" has an empty label`},
		{`Create Sentinel x Using site http://a..example/`, 25, `invalid URL "http://a..example/": host "a..example" has an empty label`},
	} {
		_, err := NewChecker(date(2003, 6, 1, 12, 0)).Check(mustParse(t, tc.src).Sentinels[0])
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Column != tc.col || !strings.Contains(list[0].Msg, tc.want) {
			t.Errorf("%s: %v (%+v), want %q at column %d", tc.src, err, list, tc.want, tc.col)
		}
	}
	s, err := DecodeSentinel([]byte(`{"name":"x","using":{"site":{"url":"http://a.example/","scope":["a.example/",7]}}}`))
	if err == nil || !strings.Contains(err.Error(), "using.site.scope[1]: want a string") {
		t.Errorf("scope of a number: %v, %v", s, err)
	}
	s, err = DecodeSentinel([]byte(`{"name":"x","using":{"site":{"url":"http://a.example/","match":"a("}}}`))
	if err == nil || !strings.Contains(err.Error(), "using.site.match: site match: error parsing regexp") {
		t.Errorf("JSON match that does not compile: %v, %v", s, err)
	}
}

// TestSiteScopeNil: a site target built in code with a nil scope is an
// error, not a panic.
func TestSiteScopeNil(t *testing.T) {
	s := mustParse(t, "Create Sentinel x Using site http://a.example/").Sentinels[0]
	s.Target.(*SiteTarget).Scope = []*Lit{nil}
	if _, err := NewChecker(date(2003, 6, 1, 12, 0)).Check(s); err == nil || !strings.Contains(err.Error(), "missing URL prefix") {
		t.Errorf("nil scope: %v", err)
	}
}

// TestCheckerFailed: a sentinel checked alone with Check and found in
// error is named as such to those that use it once the caller says so,
// as CheckFile names the failed sentinels of its file.
func TestCheckerFailed(t *testing.T) {
	f := mustParse(t, "Create Sentinel p1 Using http://a.example Monitor keywords {\"a b\"}\nCreate Sentinel p2 Using p1")
	for _, failed := range []bool{false, true} {
		c := NewChecker(date(2026, 1, 4, 12, 0))
		if _, err := c.Check(f.Sentinels[0]); err == nil {
			t.Fatal("p1 checked without error")
		}
		want := "unknown sentinel p1"
		if failed {
			c.Failed("P1")
			want = "sentinel p1 has errors"
		}
		if _, err := c.Check(f.Sentinels[1]); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Failed called %v: p2: %v, want %q", failed, err, want)
		}
	}
}

// TestNormalizeURLHidesCredentials: a URL with a password is refused with
// an error that shows it hidden, as the fetcher's errors hide a redirect's
// (import warc names a record by it on standard error): the password was
// in the message.
func TestNormalizeURLHidesCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:secret@a.example/":       `invalid URL "http://user:xxxxx@a.example/": credentials in URLs are not accepted`,
		"http://user:se%2Fcret@a.example/x?q": `invalid URL "http://user:xxxxx@a.example/x?q": credentials in URLs are not accepted`,
		"http://user:secret@a.example:99999/": `invalid URL "http://user:xxxxx@a.example:99999/": port 99999 out of range (1 to 65535)`,
		"ftp://user:secret@a.example/":        `invalid URL "ftp://user:xxxxx@a.example/": scheme ftp: only http and https pages can be watched`,
		"http://a:b:secret@-bücher.example/":  `invalid URL "http://a:xxxxx@-bücher.example/": credentials`,
		"http://user@a.example/":              `invalid URL "http://user@a.example/": credentials in URLs are not accepted`,
		"http://user:secret@a.example:x/":     `invalid URL "http://user:xxxxx@a.example:x/": `,
		"//user:secret@a.example/":            `invalid URL "//user:xxxxx@a.example/": `,
		"user:secret@a.example/docs":          `invalid URL "user:xxxxx@a.example/docs": `,
	} {
		got, err := NormalizeURL(in)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "cret") {
			t.Errorf("NormalizeURL(%q) = %q, %v; want error %q...", in, got, err, want)
		}
	}
}

// TestUnbalancedSelectorColumn: a selector whose brackets or quotes do not
// balance is reported at the bracket or quote that does not, not at the
// selector's opening quote.
func TestUnbalancedSelectorColumn(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0)}
	const line1 = "Create Sentinel s Using http://a.example\n"
	for name, tc := range map[string]struct {
		sel  string // the selector as written, after "In css "
		want int    // the byte column of the mistake
		msg  string
	}{
		"unbalanced ]":     {`"p[x]]"`, 31, "unbalanced ]"},
		"unclosed [":       {`"div[class"`, 30, "unclosed ["},
		"unclosed (":       {`"li:not(.a"`, 33, "unclosed ("},
		"unterminated '":   {`"a[x='y]"`, 31, "unterminated quote"},
		"after é":          {`"é]"`, 29, "unbalanced ]"},
		"after an escape":  {`"\u00e9]"`, 33, "unbalanced ]"},
		"typographic open": {`“p]”`, 30, "unbalanced ]"},
	} {
		line := "Monitor all words In css " + tc.sel
		_, err := c.Check(mustParse(t, line1+line).Sentinels[0])
		var e *Error
		col := utf8.RuneCountInString(line[:tc.want-1]) + 1 // columns count runes
		if !errors.As(err, &e) || e.Pos.Line != 2 || e.Pos.Column != col || e.Pos.Offset != len(line1)+tc.want-1 || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: error %v (%+v), want line 2 column %d: %s", name, err, e, col, tc.msg)
		}
	}
}
