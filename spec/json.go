package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MarshalJSON encodes the sentinel in its JSON form. Positions are not kept.
func (s *Sentinel) MarshalJSON() ([]byte, error) {
	return json.Marshal(sentinelJSON(s))
}

// UnmarshalJSON decodes and validates the JSON form of a sentinel. The
// error is a FieldErrors list naming the path of each bad field
// ("monitor.or[1].args[0]"). Rules that need other sentinels or the clock
// are left to a Checker.
func (s *Sentinel) UnmarshalJSON(data []byte) error {
	x, err := DecodeSentinel(data)
	if x != nil {
		*s = *x
	}
	return err
}

// MarshalJSON encodes a checked sentinel: the complete sentinel plus the
// read-only members parent, inherited, defaulted, urls, requires, site,
// start, end and warnings.
func (c *Checked) MarshalJSON() ([]byte, error) {
	type checkedJSON struct {
		*jsonSentinel
		Parent    string    `json:"parent,omitempty"`
		Inherited []string  `json:"inherited,omitempty"`
		Defaulted []string  `json:"defaulted"`
		URLs      []string  `json:"urls"`
		Requires  [][]int   `json:"requires,omitempty"`
		Site      *Site     `json:"site,omitempty"`
		Start     time.Time `json:"start"`
		End       time.Time `json:"end"`
		Warnings  []string  `json:"warnings,omitempty"`
	}
	out := checkedJSON{jsonSentinel: sentinelJSON(c.Sentinel), Parent: c.Parent, Inherited: c.Inherited, Defaulted: c.Defaulted,
		URLs: c.URLs, Requires: c.Requires, Site: c.Site, Start: c.Start, End: c.End}
	if out.URLs == nil {
		out.URLs = []string{}
	}
	if out.Defaulted == nil {
		out.Defaulted = []string{} // present: a sentinel with no defaults is not one stored before the list was kept
	}
	for _, w := range c.Warnings {
		out.Warnings = append(out.Warnings, w.Msg)
	}
	return json.Marshal(out)
}

// CheckedURLs returns the pages a checked sentinel in its JSON form
// (MarshalJSON) watches, without decoding the rest: for a caller that asks
// it of many sentinels at once.
func CheckedURLs(data []byte) ([]string, error) {
	var c struct {
		URLs []string `json:"urls"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return c.URLs, nil
}

// CheckedSite returns the site a checked sentinel in its JSON form
// watches (its read-only member "site"), or nil, without decoding the
// rest.
func CheckedSite(data []byte) (*Site, error) {
	var c struct {
		Site *Site `json:"site"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return c.Site, nil
}

// UnmarshalJSON decodes a checked sentinel as MarshalJSON writes it, for a
// store that keeps the JSON form and rebuilds Stored values for
// Checker.Lookup. The sentinel is validated as DecodeSentinel does, but
// for the URL rules added after sentinels were stored with URLs they
// break (a port outside 1 to 65535, "http:/a.example", a host DNS
// refuses, "a..example") and for the Monitor rules added since (a NOT
// that narrows nothing, operands that differ only in the case of their
// keywords): such a sentinel loads and runs as it did, its fetches
// failing as they did. The read-only members are taken as they
// are (they were computed by the checker when the sentinel was stored).
func (c *Checked) UnmarshalJSON(data []byte) error {
	s, err := decodeSentinel(data, true)
	if err != nil {
		return err
	}
	var extra struct {
		Parent    string    `json:"parent"`
		Inherited []string  `json:"inherited"`
		Defaulted *[]string `json:"defaulted"`
		URLs      []string  `json:"urls"`
		Requires  [][]int   `json:"requires"`
		Site      *Site     `json:"site"`
		Start     time.Time `json:"start"`
		End       time.Time `json:"end"`
		Warnings  []string  `json:"warnings"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return FieldErrors{{Msg: "invalid read-only member: " + err.Error()}}
	}
	if site := extra.Site; site != nil && (len(extra.URLs) != 1 || site.Depth < 0 || site.Depth > MaxSiteDepth || site.Pages < 1 || site.Pages > MaxSitePages) {
		return FieldErrors{{Path: "site", Msg: fmt.Sprintf("a site of depth %d and %d pages, watched with %d urls: want one url, depth 0 to %d and 1 to %d pages",
			site.Depth, site.Pages, len(extra.URLs), MaxSiteDepth, MaxSitePages)}}
	}
	if site := extra.Site; site != nil && len(site.Scope) > MaxSiteScopes {
		return FieldErrors{{Path: "site.scope", Msg: fmt.Sprintf("%d scopes: want at most %d", len(site.Scope), MaxSiteScopes)}}
	}
	if site := extra.Site; site != nil && site.Match != "" {
		if len(site.Match) > MaxSiteMatch {
			return FieldErrors{{Path: "site.match", Msg: fmt.Sprintf("%d bytes: want at most %d", len(site.Match), MaxSiteMatch)}}
		}
		if _, err := regexp.Compile(site.Match); err != nil {
			return FieldErrors{{Path: "site.match", Msg: err.Error()}}
		}
	}
	for k, r := range extra.Requires {
		for _, i := range r {
			if i < 0 || i >= len(extra.URLs) {
				return FieldErrors{{Path: fmt.Sprintf("requires[%d]", k), Msg: fmt.Sprintf("page %d is not among the %d urls", i, len(extra.URLs))}}
			}
		}
	}
	*c = Checked{Sentinel: s, Parent: extra.Parent, Inherited: extra.Inherited, URLs: extra.URLs,
		Requires: normalizeAlternatives(extra.Requires, len(extra.URLs)), Site: extra.Site, Start: extra.Start, End: extra.End}
	if extra.Defaulted != nil {
		c.Defaulted = *extra.Defaulted
	} else {
		c.defaultedUnknown = true
	}
	for _, w := range extra.Warnings {
		c.Warnings = append(c.Warnings, &Error{Msg: w})
	}
	return nil
}

// ---- encoding

type jsonSentinel struct {
	Name    string        `json:"name"`
	Using   any           `json:"using"`
	Monitor any           `json:"monitor,omitempty"`
	Fetch   *jsonFetch    `json:"fetch,omitempty"`
	Confirm string        `json:"confirm,omitempty"`
	From    *jsonTime     `json:"from,omitempty"`
	To      *jsonTime     `json:"to,omitempty"`
	Notify  []jsonContact `json:"notify,omitempty"`
	Every   string        `json:"every,omitempty"`
	Compare string        `json:"compare,omitempty"`
}

type jsonFetch struct {
	Interval string `json:"interval,omitempty"`
	OnChange bool   `json:"onChange,omitempty"`
	Render   bool   `json:"render,omitempty"`
}

type jsonTime struct {
	Date    string   `json:"date,omitempty"`
	Now     bool     `json:"now,omitempty"`
	Start   string   `json:"start,omitempty"`
	End     string   `json:"end,omitempty"`
	During  string   `json:"during,omitempty"`
	Offsets []string `json:"offsets,omitempty"`
}

type jsonContact map[string]string

type jsonChange struct {
	Kind      string              `json:"kind"`
	Args      []string            `json:"args,omitempty"`
	In        map[string]string   `json:"in,omitempty"`
	Ignore    []map[string]string `json:"ignore,omitempty"`
	Condition *jsonCondition      `json:"condition,omitempty"`
}

type jsonCondition struct {
	Op        string   `json:"op"`
	Threshold *float64 `json:"threshold,omitempty"`
}

func sentinelJSON(s *Sentinel) *jsonSentinel {
	j := &jsonSentinel{}
	if s == nil {
		return j
	}
	if s.Name != nil {
		j.Name = s.Name.Name
	}
	j.Using = targetJSON(s.Target)
	if s.Monitor != nil {
		j.Monitor = exprJSON(s.Monitor.X)
	}
	if f := s.Fetch; f != nil {
		j.Fetch = &jsonFetch{OnChange: f.OnChange, Render: f.Render}
		if f.Interval != nil {
			j.Fetch.Interval = f.Interval.Duration.String()
		}
	}
	if s.Confirm != nil && s.Confirm.After != nil {
		j.Confirm = s.Confirm.After.Duration.String()
	}
	j.From = timeJSON(s.From)
	j.To = timeJSON(s.To)
	if s.Notify != nil {
		j.Notify = []jsonContact{}
		for _, c := range s.Notify.Contacts {
			j.Notify = append(j.Notify, jsonContact{strings.ToLower(c.Kind.String()): c.Address})
		}
	}
	if e := s.Every; e != nil {
		if e.Mode == Periodic && e.Interval != nil {
			j.Every = e.Interval.Duration.String()
		} else {
			j.Every = e.Mode.String()
		}
	}
	if c := s.Compare; c != nil {
		j.Compare = c.Method.String()
		if c.Method != Pairwise {
			j.Compare += " " + strconv.FormatInt(c.N, 10)
		}
	}
	return j
}

func targetJSON(t Target) any {
	switch t := t.(type) {
	case *URLTarget:
		return map[string]string{"url": t.URL}
	case *SiteTarget:
		site := map[string]any{"url": t.URL}
		if t.Depth != nil {
			site["depth"] = t.Depth.N
		}
		if t.Pages != nil {
			site["pages"] = t.Pages.N
		}
		if len(t.Scope) > 0 {
			scope := make([]string, 0, len(t.Scope))
			for _, s := range t.Scope {
				if s != nil {
					scope = append(scope, s.Value)
				}
			}
			site["scope"] = scope
		}
		if t.Match != nil {
			site["match"] = t.Match.Value
		}
		return map[string]any{"site": site}
	case *SentinelTarget:
		if t.Name != nil {
			return map[string]string{"sentinel": t.Name.Name}
		}
	case *BinaryTarget:
		var ops []Target
		flattenLeftTarget(t, t.Op, &ops)
		list := make([]any, len(ops))
		for i, o := range ops {
			list[i] = targetJSON(o)
		}
		return map[string]any{strings.ToLower(t.Op.String()): list}
	}
	return nil
}

// flattenLeftTarget flattens a left-nested chain of op: ((a op b) op c).
func flattenLeftTarget(t Target, op Op, out *[]Target) {
	if b, ok := t.(*BinaryTarget); ok && b.Op == op {
		flattenLeftTarget(b.X, op, out)
		*out = append(*out, b.Y)
		return
	}
	*out = append(*out, t)
}

func flattenLeftExpr(x Expr, op Op, out *[]Expr) {
	if b, ok := x.(*BinaryExpr); ok && b.Op == op {
		flattenLeftExpr(b.X, op, out)
		*out = append(*out, b.Y)
		return
	}
	*out = append(*out, x)
}

func exprJSON(x Expr) any {
	switch x := x.(type) {
	case *NotExpr:
		return map[string]any{"not": exprJSON(x.X)}
	case *BinaryExpr:
		var ops []Expr
		flattenLeftExpr(x, x.Op, &ops)
		list := make([]any, len(ops))
		for i, o := range ops {
			list[i] = exprJSON(o)
		}
		return map[string]any{strings.ToLower(x.Op.String()): list}
	case *ChangeType:
		j := jsonChange{Kind: x.Kind.String()}
		for _, a := range x.Args {
			j.Args = append(j.Args, a.Value)
		}
		if x.Scope != nil && x.Scope.Expr != nil {
			j.In = map[string]string{x.Scope.Lang.String(): x.Scope.Expr.Value}
		}
		for _, ig := range x.Ignore {
			if ig.Expr != nil {
				j.Ignore = append(j.Ignore, map[string]string{ig.Lang.String(): ig.Expr.Value})
			}
		}
		if c := x.Condition; c != nil {
			j.Condition = &jsonCondition{Op: c.Op.String()}
			if c.Op.HasThreshold() {
				v := c.Threshold
				j.Condition.Threshold = &v
			}
		}
		return j
	}
	return nil
}

func timeJSON(t *TimeSpec) *jsonTime {
	if t == nil {
		return nil
	}
	j := &jsonTime{}
	switch b := t.Base.(type) {
	case *Now:
		j.Now = true
	case *Date:
		j.Date = fmt.Sprintf("%04d-%02d-%02d", b.Year, b.Month, b.Day)
		if b.HasClock {
			j.Date += fmt.Sprintf("T%02d:%02d", b.Hour, b.Minute)
		}
	case *Event:
		name := ""
		if b.Name != nil {
			name = b.Name.Name
		}
		switch b.Kind {
		case Start:
			j.Start = name
		case End:
			j.End = name
		case During:
			j.During = name
		}
	}
	for _, off := range t.Offsets {
		j.Offsets = append(j.Offsets, off.Duration.String())
	}
	return j
}
