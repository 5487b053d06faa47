package monitor

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/schedule"
)

// state is a sentinel's run-time state, persisted as JSON with each check
// (vigil.CheckStore): everything a restart needs to go on exactly where
// the last committed check left off.
type state struct {
	Status  schedule.Status  `json:"status"`
	History schedule.History `json:"history"`
	// Pages are the versions the sentinel saw, per watched URL.
	Pages map[string]*pageState `json:"pages,omitempty"`
	// Confirm is a detected change waiting for its confirmation re-fetch.
	Confirm *pendingConfirm `json:"confirm,omitempty"`
	// DigestSince and DigestDue bound the current period of an
	// "Every <interval>" digest.
	DigestSince time.Time `json:"digestSince,omitzero"`
	DigestDue   time.Time `json:"digestDue,omitzero"`
	// DigestFrom is the start of the first period of an "Every n days",
	// weeks or months digest, from which its periods' ends are counted
	// in those units (nextDigestDue); zero for a fixed period (of
	// seconds, minutes or hours), and in a state saved before it was
	// kept, whose open period's end is taken for it.
	DigestFrom time.Time `json:"digestFrom,omitzero"`
	// CheckDue is when the sentinel's pages are next to be read, as the
	// policy gave it (backing off on failures), a confirmation or the
	// lifespan: the sentinel may be woken earlier for its digest alone.
	CheckDue time.Time `json:"checkDue,omitzero"`
	// EndNotice says that the notice of the sentinel's end
	// (lifespanEnded) waits for the digest of its last period, which the
	// store could not give when the lifespan ended: the notice is the
	// sentinel's last word.
	EndNotice bool `json:"endNotice,omitempty"`
	// Site says the sentinel watched a site at its last check: it may
	// have a site snapshot, dropped at its first check as anything else.
	Site bool `json:"site,omitempty"`
	// ScopeNotes say, for the pages the sentinel watches, what its
	// scopes select nothing of (ScopeNotes, scopemiss.go).
	ScopeNotes []string `json:"scopeNotes,omitempty"`
	// NotesOf is the Monitor clause ScopeNotes are of (exprKey), so that
	// they are not said after an edit of it (Summary).
	NotesOf string `json:"notesOf,omitempty"`
	// SiteNotes say, for a site sentinel, what its scopes select nothing
	// of on any page of its last crawl (sitescopemiss.go), said in
	// ScopeNotes; SiteNotesOf is a short hash of the versions of the
	// pages looked at and the Monitor clause they are of (exprKey),
	// after a space, so that the pages are looked at again only when
	// either changes.
	SiteNotes   []string `json:"siteNotes,omitempty"`
	SiteNotesOf string   `json:"siteNotesOf,omitempty"`
}

// pageState numbers the content versions of one page as the sentinel saw
// them (the compare options count versions per sentinel: seed §1.8) and
// keeps the ids of the newest few, enough to find any reference.
type pageState struct {
	Count int64   `json:"count"`
	Seen  []int64 `json:"seen"` // version ids of sightings Count-len(Seen)+1 .. Count
	// File is the version of the file the page answered at the
	// sentinel's last sighting of it (a binary document: binarypage.go),
	// 0 when it answered a page. A file's version has no body to compare
	// with: it is neither counted nor in Seen, so that the page's texts
	// are compared with each other across it.
	File int64 `json:"file,omitempty"`
	// Pending is a change found on the page that waits for the other pages
	// of an alternative ("Using A AND B"); nil when none waits.
	Pending *pendingChange `json:"pending,omitempty"`
	// PendingFile is a change of the page from or to a file (binarypage.go:
	// it turned into a file, its file changed, it turned back into a page)
	// that waits as Pending does; nil when none waits.
	PendingFile *pendingChange `json:"pendingFile,omitempty"`
	// FailingSince is the first check of the page's current run of failed
	// fetches (zero while it works); FailureSent says its owner was told.
	FailingSince time.Time `json:"failingSince,omitzero"`
	FailureSent  bool      `json:"failureSent,omitempty"`
	// CheckError is why the sentinel's last check of the page failed
	// where no version of the page says so (failedUnrecorded: a site's
	// check cut at its claim's lease, a site's change that could not be
	// recorded, a check that panicked), which Summary gives as the page's
	// last error, as a failed fetch's version gives its own. Empty while
	// the page works, and when its newest version tells the failure.
	CheckError string `json:"checkError,omitempty"`
	// CheckErrorOf is what CheckError is of (plan.checkKey): for a
	// site's start page, the site's query (its URL, scope, match, depth
	// and pages), so that an error of a crawl the sentinel was edited
	// not to run (a start page's redirect out of the scope, when a scope
	// is written since) is not said after the edit (Summary); empty for
	// a page's, and in states written before it was kept.
	CheckErrorOf string `json:"checkErrorOf,omitempty"`
	// ScopeMisses is what the sentinel's change types look at and the
	// page's version MissesOf names lacks (intent.ScopeMisses); MissesOf
	// is that version's id and a short hash of the Monitor clause they were
	// found for (exprKey).
	ScopeMisses []string `json:"scopeMisses,omitempty"`
	MissesOf    string   `json:"missesOf,omitempty"`
}

// pendingChange is a change found on a page and not reported yet: from
// version Ref (the reference when it was first found) to Cur (the newest
// version it was found in).
type pendingChange struct {
	Ref      int64 `json:"ref"`
	Cur      int64 `json:"cur"`
	Resource int64 `json:"resource"`
}

// pendingConfirm is a change found on page URL from version Ref to Cand,
// to be confirmed by the page's fetch at At. File says it is a change
// from or to a file (fileSeen), not one of the page's text. Text, for a
// file's change that is the page turning back into a page, says that the
// page's text changed too since before the file when it turned back into
// Cand: that change is confirmed with the file's, at At, not after it
// (checkPage), so that both are told together as they are unconfirmed.
type pendingConfirm struct {
	URL  string    `json:"url"`
	Ref  int64     `json:"ref"`
	Cand int64     `json:"cand"`
	At   time.Time `json:"at"`
	File bool      `json:"file,omitempty"`
	Text bool      `json:"text,omitempty"`
}

// Lifespan returns the lifespan status recorded in a sentinel's stored
// state (vigil.CheckStore.SentinelStates): when it started and ended, zero
// if it has not.
func Lifespan(raw json.RawMessage) schedule.Status { return decodeState(raw).Status }

// LifespanAt returns the lifespan status that the next check of sentinel
// s, at now, starts from, where st is the one its state records: st, but
// for an ended sentinel whose To was edited since to one not reached at
// now, which that check takes up again (schedule.Lifespan.Evaluate), so
// that the views of a sentinel just edited to live on (the dashboard's
// page the edit leads to, the API's answer, vigil sentinel list) do not
// say it ended, with no next check, while it is due at once. An event
// its From or To waits on is taken as not happened yet.
func LifespanAt(st schedule.Status, s *vigil.Sentinel, now time.Time) schedule.Status {
	if st.Phase() != schedule.Ended || s == nil {
		return st
	}
	p, err := decodePlan(s)
	if err != nil {
		return st
	}
	if tr := p.lifespan.Evaluate(now, st, nil); tr.Status.Phase() != schedule.Ended {
		return tr.Status
	}
	return st
}

// StateSummary is what a sentinel's stored state says to its users: its
// lifespan status (Lifespan), its scope notes (ScopeNotes) and, by page
// URL, the start of each failing page's run of failed fetches
// (FailingSince, what its failure notice says; none for a page that
// works), and when its next digest goes out (DigestDue).
type StateSummary struct {
	Lifespan     schedule.Status      `json:"status"`
	ScopeNotes   []string             `json:"scopeNotes"`
	FailingSince map[string]time.Time `json:"-"`
	// CheckErrors is, by page URL, why the sentinel's last check of the
	// page failed where no version of the page says so (a site's check
	// cut at its claim's lease: pageState.CheckError); a page whose
	// newest version tells its failure, or that works, has none.
	CheckErrors map[string]string `json:"-"`
	// DigestDue is the end of the sentinel's open digest period (Every
	// <interval>), when the digest of the changes found in it is sent,
	// if there are any: zero when no period is open, before the first
	// check of a sentinel sending digests and once one that no longer
	// does sent its last. A sentinel edited to send none keeps its
	// period until its next check sends it; an ended sentinel's was
	// sent at its end.
	DigestDue time.Time `json:"digestDue"`
}

// Summary returns the lifespan, scope notes and pages' failures recorded
// in the stored state of sentinel s, read at once (and the rest of the
// state not decoded); zero for a state without, or one that does not read. Notes of
// a Monitor clause s no longer has (edited since its last check) are not
// said.
func Summary(raw json.RawMessage, s *vigil.Sentinel) StateSummary {
	var st struct {
		StateSummary
		NotesOf string `json:"notesOf"`
		Pages   map[string]struct {
			FailingSince time.Time `json:"failingSince"`
			CheckError   string    `json:"checkError"`
			CheckErrorOf string    `json:"checkErrorOf"`
		} `json:"pages"`
	}
	if len(raw) > 0 && json.Unmarshal(raw, &st) != nil {
		return StateSummary{}
	}
	for url, p := range st.Pages {
		if !p.FailingSince.IsZero() {
			if st.FailingSince == nil {
				st.FailingSince = map[string]time.Time{}
			}
			st.FailingSince[url] = p.FailingSince
		}
		if p.CheckError != "" {
			if st.CheckErrors == nil {
				st.CheckErrors = map[string]string{}
			}
			st.CheckErrors[url] = p.CheckError
		}
	}
	if s == nil || len(st.FailingSince) == 0 && len(st.CheckErrors) == 0 && (len(st.ScopeNotes) == 0 || st.NotesOf == "") {
		return st.StateSummary
	}
	p, err := decodePlan(s)
	if len(st.ScopeNotes) > 0 && st.NotesOf != "" && (err != nil || exprKey(p.expr) != st.NotesOf) {
		st.ScopeNotes = nil
	}
	if err == nil {
		// Said only of the pages the sentinel watches now, and a check's
		// error only of what it checks now: an edit of its URL, or of
		// its site's crawl, leaves no error of before it said until the
		// next check (which ends the runs of the pages it no longer
		// watches: state.unwatched).
		key := p.checkKey()
		for u := range st.FailingSince {
			if !slices.Contains(p.urls, u) {
				delete(st.FailingSince, u)
			}
		}
		for u := range st.CheckErrors {
			if of := st.Pages[u].CheckErrorOf; !slices.Contains(p.urls, u) || of != "" && of != key {
				// Its run of failures is the error's: of before the edit.
				delete(st.CheckErrors, u)
				delete(st.FailingSince, u)
			}
		}
		// The pages are kept by canonical URL (decodePlan); the
		// sentinel's readers know them as its specification writes
		// them ("/a/./b#x").
		for i, u := range p.written {
			if t, ok := st.FailingSince[p.urls[i]]; ok {
				st.FailingSince[u] = t
			}
			if e, ok := st.CheckErrors[p.urls[i]]; ok {
				st.CheckErrors[u] = e
			}
		}
	}
	return st.StateSummary
}

func decodeState(raw json.RawMessage) *state {
	st := &state{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, st); err != nil {
			st = &state{} // a state we cannot read restarts from scratch
		}
	}
	if st.Pages == nil {
		st.Pages = map[string]*pageState{}
	}
	return st
}

// follow renames the pages of the state, and the page of a waiting
// confirmation, to the URLs the sentinel watches now where they are the
// same page (vigil.CanonicalURL) spelt otherwise. The state is keyed by the
// canonical URLs of the sentinel's checked specification (decodePlan),
// once keyed by those URLs as written, and spec.NormalizeURL
// gained a normal form ("http://a.example" became "http://a.example/", a
// default port is dropped): a sentinel checked again, when it is edited,
// would otherwise find no versions seen of its pages and compare its next
// one with nothing, and drop its waiting changes.
func (s *state) follow(urls []string) {
	canon := func(u string) string {
		if c, err := vigil.CanonicalURL(u); err == nil {
			return c
		}
		return u
	}
	// The watched URLs without a state, by canonical form; "" when two
	// share one (then neither is guessed).
	missing := map[string]string{}
	for _, u := range urls {
		if _, ok := s.Pages[u]; ok {
			continue
		}
		c := canon(u)
		if _, dup := missing[c]; dup {
			missing[c] = ""
		} else {
			missing[c] = u
		}
	}
	if len(missing) > 0 {
		var old []string
		for k := range s.Pages {
			if !slices.Contains(urls, k) {
				old = append(old, k)
			}
		}
		sort.Strings(old)
		for _, k := range old {
			c := canon(k)
			if u := missing[c]; u != "" {
				s.Pages[u] = s.Pages[k]
				delete(s.Pages, k)
				delete(missing, c)
			}
		}
	}
	if c := s.Confirm; c != nil && !slices.Contains(urls, c.URL) {
		for _, u := range urls {
			if canon(u) == canon(c.URL) {
				c.URL = u
				break
			}
		}
	}
}

// unwatched ends the runs of failures, and forgets the check errors, of
// the pages of the state the sentinel no longer watches (urls, its pages
// now): edited to watch another URL, it has no failure of the old one
// to say, nor to say is over. What it saw of them is kept, lest an edit
// back compare with nothing.
func (s *state) unwatched(urls []string) {
	for u, ps := range s.Pages {
		if !slices.Contains(urls, u) {
			ps.FailingSince, ps.FailureSent, ps.CheckError, ps.CheckErrorOf = time.Time{}, false, "", ""
		}
	}
}

func (s *state) encode() json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic("monitor: state does not encode: " + err.Error())
	}
	return b
}

// last returns the newest version the sentinel saw of the page, 0 if none.
func (p *pageState) last() int64 {
	if p == nil || len(p.Seen) == 0 {
		return 0
	}
	return p.Seen[len(p.Seen)-1]
}

// reference returns the version the next sighting (number Count+1) is
// compared with under the compare option, and false when it is compared
// with nothing (the first sighting, or not a comparison point).
func (p *pageState) reference(c intent.Compare) (int64, bool) {
	v := int(p.Count + 1)
	ref, ok := c.Reference(v)
	if !ok {
		return 0, false
	}
	back := v - ref // 1 for the previous sighting
	if back > len(p.Seen) {
		return 0, false
	}
	return p.Seen[len(p.Seen)-back], true
}

// add records a sighting of version id, keeping as many ids as the compare
// option can reach back.
func (p *pageState) add(id int64, c intent.Compare) {
	p.Count++
	p.Seen = append(p.Seen, id)
	keep := 1
	if c.N > 1 {
		keep = c.N
	}
	if len(p.Seen) > keep {
		p.Seen = append([]int64(nil), p.Seen[len(p.Seen)-keep:]...)
	}
}
