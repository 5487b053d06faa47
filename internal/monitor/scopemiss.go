package monitor

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// A sentinel whose table, list or scope names what its page lacks ("table
// {u}" on a page without a table#u) finds no change there, however the
// page changes: each check notes it in the sentinel's state, per page
// (pageState.ScopeMisses, intent.ScopeMisses), and the state says it for
// the pages the sentinel watches (state.ScopeNotes, read by ScopeNotes),
// which the dashboard and vigil sentinel list show. It is no failure: the
// check goes on, and the page may grow the table.

// ScopeNotes returns what the sentinel's last checks found its scopes
// select nothing of, on the pages it watches, as recorded in its stored
// state (vigil.CheckStore.SentinelStates): "scope table#u matches nothing
// on https://a.example/", sorted. None for a state without (or unread).
func ScopeNotes(raw json.RawMessage) []string { return decodeState(raw).ScopeNotes }

// needsScopeCheck reports whether x has a change type that can select
// nothing: one with a scope or an Ignore, or a table or list.
func needsScopeCheck(x spec.Expr) bool {
	return slices.ContainsFunc(spec.ChangeTypes(x), func(ct *spec.ChangeType) bool {
		return ct.Scope != nil || len(ct.Ignore) > 0 || ct.Kind == spec.Table || ct.Kind == spec.List
	})
}

// noteScopeMisses records on ps what j's change types look at and the
// page's current version lacks, once per version and expression (an edit
// of the Monitor clause looks again at the version it saw), as cur reads
// them for every sentinel of the page. A version read as its source
// text, or one that cannot be read, notes nothing.
func (m *Monitor) noteScopeMisses(ctx context.Context, j *job, ps *pageState, cur *currentScopes) {
	if !needsScopeCheck(j.plan.expr) {
		ps.ScopeMisses, ps.MissesOf = nil, ""
		return
	}
	key := strconv.FormatInt(cur.id, 10) + " " + exprKey(j.plan.expr)
	if ps.MissesOf == key {
		return
	}
	misses, err := cur.misses(ctx, j.plan.expr)
	ps.ScopeMisses, ps.MissesOf = misses, key
	if err != nil {
		m.Logger.Warn("scopes", LogSentinel, j.s.ID, LogVersion, cur.id, LogError, err)
		if cur.err != nil {
			ps.MissesOf = "" // the page was not read: looked at again at the next check
		}
	}
}

// exprKey returns a short hash of x's printed form, which the state saved
// at every check keeps (pageState.MissesOf) to tell an edit of the Monitor
// clause, rather than the clause itself.
func exprKey(x spec.Expr) string {
	h := fnv.New64a()
	h.Write([]byte(spec.Print(x)))
	return strconv.FormatUint(h.Sum64(), 36)
}

// currentScopes reads the scope notes of a page's current version for the
// sentinels of one check of the page (one goroutine): through a
// comparison of the check whose new version it is (pairEval), else
// through the version read into its tree once, for all of them; the notes
// of an expression asked twice are found once.
type currentScopes struct {
	m     *Monitor
	id    int64 // the version
	pairs map[[2]int64]*pairEval
	grant *memoryGrant
	pair  *intent.Pair // nil before it is read, or for a version read as its source text
	read  bool
	err   error
	found map[string][]string // by printed expression
}

// misses returns the scope notes of x on the version
// (intent.Pair.ScopeMisses); none for a version read as its source text.
// The error is that of reading the version (then c.err too), or of a
// selector.
func (c *currentScopes) misses(ctx context.Context, x spec.Expr) ([]string, error) {
	key := spec.Print(x)
	if out, ok := c.found[key]; ok {
		return out, nil
	}
	if !c.read {
		c.read = true
		c.pair, c.err = c.load(ctx)
	}
	if c.err != nil || c.pair == nil {
		return nil, c.err
	}
	out, err := c.pair.ScopeMisses(x)
	if err != nil {
		return nil, err
	}
	if c.found == nil {
		c.found = map[string][]string{}
	}
	c.found[key] = out
	return out, nil
}

// load returns the pair whose New is the version: a comparison's of this
// check, else one of the version alone, read here within the grant
// (storedTree, whose errors it returns); none for a version read as its
// source text, or not read into a tree at all.
func (c *currentScopes) load(ctx context.Context) (*intent.Pair, error) {
	for _, pe := range c.pairs {
		if pe.cur == c.id && pe.new != nil && pe.pair != nil {
			if pe.curWhy != "" {
				return nil, nil
			}
			return pe.pair, nil
		}
	}
	doc, why, err := c.m.storedTree(ctx, c.id, c.grant)
	if err != nil || doc == nil || why != "" {
		return nil, err
	}
	return intent.NewPair(nil, doc, nil, c.m.Detect), nil
}

// scopeNotes returns the notes of the pages urls (ScopeNotes) found for
// the Monitor clause of key (exprKey): each page's misses followed by its
// URL, its password hidden, sorted. A page whose notes are of the clause
// before an edit (not read since) has none.
func (s *state) scopeNotes(urls []string, key string) []string {
	var out []string
	for _, u := range urls {
		ps := s.Pages[u]
		if ps == nil || !strings.HasSuffix(ps.MissesOf, " "+key) {
			continue
		}
		for _, miss := range ps.ScopeMisses {
			out = append(out, miss+" on "+vigil.RedactURL(u))
		}
	}
	slices.Sort(out)
	return out
}
