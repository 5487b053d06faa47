package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// FieldError is a problem in the JSON form of a sentinel, at a field path
// such as "monitor.and[1].args[0]" ("" for the whole document).
type FieldError struct {
	Path string
	Msg  string
}

// Error returns "path: message".
func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// FieldErrors lists the problems of a JSON document, sorted by their
// places in it (the member or item each path names), as ErrorList is by
// position.
type FieldErrors []*FieldError

// Error returns the problems separated by "; ".
func (l FieldErrors) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap returns the errors of the list, so errors.As finds a *FieldError.
func (l FieldErrors) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// DecodeSentinel decodes and validates the JSON form of one sentinel (see
// the package documentation of the JSON form). It returns the sentinel,
// partial when there are errors, and a FieldErrors list.
func DecodeSentinel(data []byte) (*Sentinel, error) {
	return decodeSentinel(data, false)
}

// decodeSentinel is DecodeSentinel; for a stored sentinel (Checked's JSON
// form read back), the rules added since it was stored are left out
// (see validator.stored).
func decodeSentinel(data []byte, stored bool) (*Sentinel, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, FieldErrors{{Msg: "invalid JSON: " + err.Error()}}
	}
	if dec.More() {
		return nil, FieldErrors{{Msg: "invalid JSON: more than one value"}}
	}
	d := &decoder{paths: map[Node]string{}, badArgs: map[*ChangeType]bool{}}
	// A member written twice in one object is read as the last of its
	// writings by the decoder, the others lost without a word: refused,
	// as a clause written twice is.
	if !stored {
		_, twice := fieldOffsets(data)
		for _, path := range twice {
			d.errorf(path, "given twice: write each member once (the last would replace the others)")
		}
	}
	s := d.sentinel(v)
	if s != nil {
		val := &validator{
			report: func(n Node, _, msg string) {
				if l, ok := n.(argList); ok && d.badArgs[l.ChangeType] {
					// Its values that did not decode are left out, and
					// said already: the list is not short of one.
					return
				}
				d.errorf(d.pathOf(n), "%s", msg)
			},
			warn:      func(Node, string, string) {},
			stored:    stored,
			countable: !stored,
		}
		val.sentinel(s)
	}
	if len(d.errs) > 0 {
		sortByPlace(d.errs, data)
		return s, d.errs
	}
	return s, nil
}

type decoder struct {
	errs  FieldErrors
	paths map[Node]string
	// badArgs holds the change types with args that did not decode.
	badArgs map[*ChangeType]bool
	depth   int // nesting of expressions and targets, bounded by maxDepth
}

// nest counts one more level of nesting; it reports false (and an error)
// beyond maxDepth.
func (d *decoder) nest(path string) bool {
	d.depth++
	if d.depth > maxDepth {
		d.errorf(path, "nested too deeply (more than %d levels)", maxDepth)
		return false
	}
	return true
}

func (d *decoder) errorf(path, format string, args ...any) {
	d.errs = append(d.errs, &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// pathOf returns the field path of n: that of its change type's args for
// the list of a change type's values (argList).
func (d *decoder) pathOf(n Node) string {
	if isNilNode(n) {
		return ""
	}
	if l, ok := n.(argList); ok {
		return join(d.paths[l.ChangeType], "args")
	}
	return d.paths[n]
}

func (d *decoder) at(n Node, path string) {
	d.paths[n] = path
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// object returns v as an object whose members are all in allowed.
func (d *decoder) object(v any, path string, allowed ...string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "want an object, found %s", typeName(v))
		return nil, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		found := false
		for _, a := range allowed {
			found = found || a == k
		}
		if !found {
			d.errorf(join(path, short(k)), "unknown field (want one of %s)", strings.Join(allowed, ", "))
		}
	}
	return m, true
}

func (d *decoder) str(v any, path string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.errorf(path, "want a string, found %s", typeName(v))
	}
	return s, ok
}

func (d *decoder) boolean(v any, path string) bool {
	b, ok := v.(bool)
	if !ok {
		d.errorf(path, "want a boolean, found %s", typeName(v))
	}
	return b
}

func (d *decoder) list(v any, path string) []any {
	l, ok := v.([]any)
	if !ok {
		d.errorf(path, "want an array, found %s", typeName(v))
	}
	return l
}

// one returns the single member of an object that must have exactly one of
// the keys.
func (d *decoder) one(m map[string]any, path string, keys ...string) (string, any, bool) {
	var key string
	n := 0
	for _, k := range keys {
		if _, ok := m[k]; ok {
			key = k
			n++
		}
	}
	if n != 1 {
		d.errorf(path, "want exactly one of %s", strings.Join(keys, ", "))
		return "", nil, false
	}
	return key, m[key], true
}

func (d *decoder) ident(v any, path string) *Ident {
	s, ok := d.str(v, path)
	if !ok {
		return nil
	}
	id := &Ident{Name: CanonicalName(s)}
	d.at(id, path)
	return id
}

func (d *decoder) sentinel(v any) *Sentinel {
	m, ok := d.object(v, "", "name", "using", "monitor", "fetch", "confirm", "from", "to", "notify", "every", "compare",
		"parent", "inherited", "defaulted", "urls", "requires", "site", "start", "end", "warnings")
	if !ok {
		return nil
	}
	s := &Sentinel{}
	d.at(s, "")
	if v, ok := m["name"]; ok {
		s.Name = d.ident(v, "name")
	} else {
		d.errorf("name", "missing")
	}
	if v, ok := m["using"]; ok {
		s.Target = d.target(v, "using")
	} else {
		d.errorf("using", "missing")
	}
	if v, ok := m["monitor"]; ok {
		s.Monitor = &MonitorClause{X: d.expr(v, "monitor")}
		d.at(s.Monitor, "monitor")
		if s.Monitor.X == nil {
			s.Monitor = nil
		}
	}
	if v, ok := m["fetch"]; ok {
		s.Fetch = d.fetch(v, "fetch")
	}
	if v, ok := m["confirm"]; ok {
		if iv := d.interval(v, "confirm", "Confirm after"); iv != nil {
			s.Confirm = &ConfirmClause{After: iv}
			d.at(s.Confirm, "confirm")
		}
	}
	if v, ok := m["from"]; ok {
		s.From = d.timeSpec(v, "from", true)
	}
	if v, ok := m["to"]; ok {
		s.To = d.timeSpec(v, "to", false)
	}
	if v, ok := m["notify"]; ok {
		s.Notify = d.notify(v, "notify")
	}
	if v, ok := m["every"]; ok {
		s.Every = d.every(v, "every")
	}
	if v, ok := m["compare"]; ok {
		s.Compare = d.compare(v, "compare")
	}
	return s
}

func (d *decoder) target(v any, path string) Target {
	defer func() { d.depth-- }()
	if !d.nest(path) {
		return nil
	}
	m, ok := d.object(v, path, "url", "site", "sentinel", "and", "or")
	if !ok {
		return nil
	}
	key, val, ok := d.one(m, path, "url", "site", "sentinel", "and", "or")
	if !ok {
		return nil
	}
	p := join(path, key)
	switch key {
	case "site":
		return d.site(val, p)
	case "url":
		s, ok := d.str(val, p)
		if !ok {
			return nil
		}
		t := &URLTarget{URL: s}
		d.at(t, p)
		return t
	case "sentinel":
		id := d.ident(val, p)
		if id == nil {
			return nil
		}
		t := &SentinelTarget{Name: id}
		d.at(t, p)
		return t
	}
	op := And
	if key == "or" {
		op = Or
	}
	list := d.list(val, p)
	if list == nil {
		return nil
	}
	if len(list) < 2 {
		d.errorf(p, "want at least two operands")
		return nil
	}
	var x Target
	for i, e := range list {
		y := d.target(e, index(p, i))
		if y == nil {
			return nil
		}
		if x == nil {
			x = y
		} else {
			x = &BinaryTarget{X: x, Op: op, Y: y}
			d.at(x, p)
		}
	}
	return x
}

// site decodes a site target: {"url": u, "depth": n, "pages": n,
// "scope": [u, ...], "match": re}.
func (d *decoder) site(v any, path string) Target {
	m, ok := d.object(v, path, "url", "depth", "pages", "scope", "match")
	if !ok {
		return nil
	}
	u, has := m["url"]
	if !has {
		d.errorf(join(path, "url"), "missing")
		return nil
	}
	t := &SiteTarget{}
	if t.URL, ok = d.str(u, join(path, "url")); !ok {
		return nil
	}
	d.at(t, path)
	for _, name := range []string{"depth", "pages"} {
		raw, has := m[name]
		if !has {
			continue
		}
		p := join(path, name)
		n, ok := raw.(json.Number)
		if !ok {
			d.errorf(p, "want a number, found %s", typeName(raw))
			return nil
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			d.errorf(p, "want a whole number, found %s", short(string(n)))
			return nil
		}
		b := &Bound{N: i}
		d.at(b, p)
		if name == "depth" {
			t.Depth = b
		} else {
			t.Pages = b
		}
	}
	if raw, has := m["scope"]; has {
		p := join(path, "scope")
		list, ok := raw.([]any)
		if !ok {
			d.errorf(p, "want a list of URL prefixes, found %s", typeName(raw))
			return nil
		}
		for k, item := range list {
			ip := index(p, k)
			s, ok := d.str(item, ip)
			if !ok {
				return nil
			}
			lit := &Lit{Value: s}
			d.at(lit, ip)
			t.Scope = append(t.Scope, lit)
		}
	}
	if raw, has := m["match"]; has {
		p := join(path, "match")
		s, ok := d.str(raw, p)
		if !ok {
			return nil
		}
		t.Match = &Lit{Value: s}
		d.at(t.Match, p)
	}
	return t
}

// kindNamed returns the kind written name ("all links"), or 0.
func kindNamed(name string) Kind {
	name = strings.ToLower(strings.Join(strings.Fields(name), " "))
	for k := AnyChange; k <= Value; k++ {
		if k.String() == name {
			return k
		}
	}
	return 0
}

func (d *decoder) expr(v any, path string) Expr {
	defer func() { d.depth-- }()
	if !d.nest(path) {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "want an object, found %s", typeName(v))
		return nil
	}
	if _, isLeaf := m["kind"]; isLeaf {
		return d.changeType(m, path)
	}
	m, _ = d.object(v, path, "kind", "not", "and", "or")
	key, val, ok := d.one(m, path, "kind", "not", "and", "or")
	if !ok {
		return nil
	}
	p := join(path, key)
	if key == "not" {
		x := d.expr(val, p)
		if x == nil {
			return nil
		}
		n := &NotExpr{X: x}
		d.at(n, path)
		return n
	}
	op := And
	if key == "or" {
		op = Or
	}
	list := d.list(val, p)
	if list == nil {
		return nil
	}
	if len(list) < 2 {
		d.errorf(p, "want at least two operands")
		return nil
	}
	var x Expr
	for i, e := range list {
		y := d.expr(e, index(p, i))
		if y == nil {
			return nil
		}
		if x == nil {
			x = y
		} else {
			x = &BinaryExpr{X: x, Op: op, Y: y}
			d.at(x, p)
		}
	}
	return x
}

func (d *decoder) changeType(m map[string]any, path string) Expr {
	d.object(m, path, "kind", "args", "in", "ignore", "condition")
	name, ok := d.str(m["kind"], join(path, "kind"))
	if !ok {
		return nil
	}
	kind := kindNamed(name)
	if kind == 0 {
		d.errorf(join(path, "kind"), "unknown change type %s: want one of %s", quote(name), kindList())
		return nil
	}
	c := &ChangeType{Kind: kind}
	d.at(c, path)
	if v, ok := m["args"]; ok {
		p := join(path, "args")
		errs := len(d.errs)
		for i, e := range d.list(v, p) {
			if s, ok := d.str(e, index(p, i)); ok {
				lit := &Lit{Value: s}
				d.at(lit, index(p, i))
				c.Args = append(c.Args, lit)
			}
		}
		if len(d.errs) > errs {
			d.badArgs[c] = true
		}
	}
	if v, ok := m["in"]; ok {
		c.Scope = d.selector(v, join(path, "in"))
	}
	if v, ok := m["ignore"]; ok {
		p := join(path, "ignore")
		for i, e := range d.list(v, p) {
			if sel := d.selector(e, index(p, i)); sel != nil {
				c.Ignore = append(c.Ignore, sel)
			}
		}
	}
	if v, ok := m["condition"]; ok {
		c.Condition = d.condition(v, join(path, "condition"))
	}
	return c
}

func (d *decoder) selector(v any, path string) *Selector {
	m, ok := d.object(v, path, "css", "xpath")
	if !ok {
		return nil
	}
	key, val, ok := d.one(m, path, "css", "xpath")
	if !ok {
		return nil
	}
	s, ok := d.str(val, join(path, key))
	if !ok {
		return nil
	}
	sel := &Selector{Lang: CSS, Expr: &Lit{Value: s}}
	if key == "xpath" {
		sel.Lang = XPath
	}
	d.at(sel, path)
	d.at(sel.Expr, join(path, key))
	return sel
}

func (d *decoder) condition(v any, path string) *Condition {
	m, ok := d.object(v, path, "op", "threshold")
	if !ok {
		return nil
	}
	op, ok := d.str(m["op"], join(path, "op"))
	if !ok {
		return nil
	}
	c := &Condition{}
	d.at(c, path)
	for o := Changes; o <= FallsBelow; o++ {
		if strings.EqualFold(op, o.String()) {
			c.Op = o
		}
	}
	if c.Op == 0 {
		d.errorf(join(path, "op"), "unknown condition %s (want changes, increases, decreases, rises above, falls below)", quote(op))
		return nil
	}
	t, has := m["threshold"]
	switch {
	case c.Op.HasThreshold() && !has:
		d.errorf(join(path, "threshold"), "missing: %s needs a threshold", c.Op)
	case !c.Op.HasThreshold() && has:
		d.errorf(join(path, "threshold"), "%s takes no threshold", c.Op)
	case has:
		n, ok := t.(json.Number)
		if !ok {
			d.errorf(join(path, "threshold"), "want a number, found %s", typeName(t))
			break
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			d.errorf(join(path, "threshold"), "number out of range")
		}
		c.Threshold = f
	}
	return c
}

// interval decodes the interval of the clause what ("Fetch", "Confirm
// after", "Every", "offset"), which a message about it names.
func (d *decoder) interval(v any, path, what string) *Interval {
	s, ok := d.str(v, path)
	if !ok {
		return nil
	}
	dur, err := ParseDuration(s)
	if big, ok := err.(*countTooLargeError); ok {
		d.errorf(path, "%s", big.tooLong(what))
		return nil
	}
	if err != nil {
		d.errorf(path, "%v", err)
		return nil
	}
	iv := &Interval{Duration: dur}
	d.at(iv, path)
	return iv
}

func (d *decoder) fetch(v any, path string) *FetchClause {
	m, ok := d.object(v, path, "interval", "onChange", "render")
	if !ok {
		return nil
	}
	f := &FetchClause{}
	d.at(f, path)
	interval, hasInterval := m["interval"]
	if hasInterval {
		f.Interval = d.interval(interval, join(path, "interval"), "Fetch")
	}
	onChange, hasOnChange := m["onChange"]
	if hasOnChange {
		f.OnChange = d.boolean(onChange, join(path, "onChange"))
	}
	if v, ok := m["render"]; ok {
		f.Render = d.boolean(v, join(path, "render"))
	}
	if !f.OnChange && f.Interval == nil {
		// An interval or an onChange that is wrong has its own error:
		// the clause has what it wants, written wrong.
		if !hasInterval && !(hasOnChange && onChange != false) {
			d.errorf(path, "want an interval or onChange: true")
		}
		return nil
	}
	return f
}

func (d *decoder) timeSpec(v any, path string, from bool) *TimeSpec {
	keys := []string{"date", "now", "start", "end", "during"}
	if !from {
		keys = keys[:4]
	}
	m, ok := d.object(v, path, append(keys, "offsets")...)
	if !ok {
		return nil
	}
	key, val, ok := d.one(m, path, keys...)
	if !ok {
		return nil
	}
	p := join(path, key)
	t := &TimeSpec{}
	d.at(t, path)
	switch key {
	case "now":
		if !d.boolean(val, p) {
			d.errorf(p, "want true")
			return nil
		}
		t.Base = &Now{}
	case "date":
		s, ok := d.str(val, p)
		if !ok {
			return nil
		}
		date := &Date{}
		tm, err := time.Parse("2006-01-02T15:04", s)
		if err == nil {
			date.HasClock = true
		} else if tm, err = time.Parse("2006-01-02", s); err != nil {
			d.errorf(p, "invalid date %s: want YYYY-MM-DD or YYYY-MM-DDTHH:MM", quote(s))
			return nil
		}
		date.Year, date.Month, date.Day = tm.Year(), int(tm.Month()), tm.Day()
		date.Hour, date.Minute = tm.Hour(), tm.Minute()
		t.Base = date
	default:
		id := d.ident(val, p)
		if id == nil {
			return nil
		}
		ev := &Event{Kind: Start, Name: id}
		switch key {
		case "end":
			ev.Kind = End
		case "during":
			ev.Kind = During
		}
		t.Base = ev
	}
	d.at(t.Base, p)
	if v, ok := m["offsets"]; ok {
		p := join(path, "offsets")
		for i, e := range d.list(v, p) {
			if iv := d.interval(e, index(p, i), "offset"); iv != nil {
				t.Offsets = append(t.Offsets, iv)
			}
		}
	}
	return t
}

func (d *decoder) notify(v any, path string) *NotifyClause {
	list := d.list(v, path)
	if list == nil {
		return nil
	}
	n := &NotifyClause{}
	d.at(n, path)
	for i, e := range list {
		p := index(path, i)
		m, ok := d.object(e, p, "email", "webhook", "chat", "fax", "pda")
		if !ok {
			continue
		}
		key, val, ok := d.one(m, p, "email", "webhook", "chat", "fax", "pda")
		if !ok {
			continue
		}
		s, ok := d.str(val, join(p, key))
		if !ok {
			continue
		}
		c := &Contact{Address: s}
		switch key {
		case "email":
			c.Kind = Email
		case "webhook":
			c.Kind = Webhook
		case "chat":
			c.Kind = Chat
		case "fax":
			c.Kind = Fax
		case "pda":
			c.Kind = PDA
		}
		d.at(c, join(p, key))
		n.Contacts = append(n.Contacts, c)
	}
	return n
}

func (d *decoder) every(v any, path string) *EveryClause {
	s, ok := d.str(v, path)
	if !ok {
		return nil
	}
	e := &EveryClause{}
	d.at(e, path)
	switch strings.ToLower(strings.Join(strings.Fields(s), " ")) {
	case "immediate":
		e.Mode = Immediate
	case "best effort":
		e.Mode = BestEffort
	case "interactive":
		e.Mode = Interactive
	default:
		iv := d.interval(v, path, "Every")
		if iv == nil {
			return nil
		}
		e.Mode, e.Interval = Periodic, iv
	}
	return e
}

func (d *decoder) compare(v any, path string) *CompareClause {
	s, ok := d.str(v, path)
	if !ok {
		return nil
	}
	c := &CompareClause{}
	d.at(c, path)
	f := strings.Fields(strings.ToLower(s))
	switch {
	case len(f) == 1 && f[0] == "pairwise":
		c.Method = Pairwise
		return c
	case len(f) == 2 && (f[0] == "every" || f[0] == "moving"):
		c.Method = EveryN
		if f[0] == "moving" {
			c.Method = MovingN
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			d.errorf(path, "invalid n %s: want an integer", quote(f[1]))
			return nil
		}
		c.N = n
		return c
	}
	d.errorf(path, "invalid compare option %s: want \"pairwise\", \"every <n>\" or \"moving <n>\"", quote(s))
	return nil
}
