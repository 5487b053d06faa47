package spec

import "slices"

// References returns the names of the other sentinels s uses, each once
// (compared without regard to case, as sameName compares them), in the order written: a sentinel it
// is written Using, and those whose start, end or activity its From and To
// wait for. A sentinel that others reference cannot be removed or renamed
// without leaving them unable to be checked again: a store asks this of
// each of the owner's checked sentinels before it does either.
func References(s *Sentinel) []string {
	var out []string
	add := func(id *Ident) {
		if id == nil {
			return
		}
		for _, n := range out {
			if sameName(n, id.Name) {
				return
			}
		}
		out = append(out, id.Name)
	}
	var target func(t Target)
	target = func(t Target) {
		switch t := t.(type) {
		case *SentinelTarget:
			add(t.Name)
		case *BinaryTarget:
			target(t.X)
			target(t.Y)
		}
	}
	if s == nil {
		return nil
	}
	target(s.Target)
	for _, ts := range []*TimeSpec{s.From, s.To} {
		if ts == nil {
			continue
		}
		if ev, ok := ts.Base.(*Event); ok {
			add(ev.Name)
		}
	}
	return out
}

// UsedBy returns, sorted, the names of the sentinels among checked (the
// owner's, in the JSON form Checked.MarshalJSON writes, as stores keep
// them) that reference the sentinel named name (References), itself left
// out. A form that does not decode is skipped.
func UsedBy(name string, checked [][]byte) []string {
	var out []string
	for _, data := range checked {
		var c Checked
		if c.UnmarshalJSON(data) != nil || c.Sentinel == nil || c.Sentinel.Name == nil || sameName(c.Sentinel.Name.Name, name) {
			continue
		}
		for _, r := range References(c.Sentinel) {
			if sameName(r, name) {
				out = append(out, c.Sentinel.Name.Name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}
