package delta

// Invert returns the delta that undoes d: deletes become inserts and
// inserts deletes (keeping parent, position, XID-map, the move and update
// tags and the content), ad and ai are swapped, au and rn swap their old and
// new values, and the labels and XID-maps of the two versions are swapped.
// The result is in canonical order (see Canonicalize), so
// Invert(Invert(d)) equals d when d is canonical, and Apply(Apply(a, d),
// Invert(d)) gives back a, XIDs included.
//
// Content subtrees are shared with d, not copied; deltas treat content as
// immutable.
func Invert(d *Delta) *Delta {
	r := invertOps(d)
	Canonicalize(r)
	return r
}

// invertOps inverts d keeping the order of its operations, so that
// operation i of the result undoes operation i of d.
func invertOps(d *Delta) *Delta {
	r := &Delta{
		From: d.To, To: d.From,
		FromXIDMap: d.ToXIDMap, ToXIDMap: d.FromXIDMap,
		FromFingerprint: d.ToFingerprint, ToFingerprint: d.FromFingerprint,
		Ops:        make([]Op, len(d.Ops)),
		Namespaces: d.Namespaces,
		Outside:    invertOutside(d.Outside),
		places:     d.places,
	}
	for i, op := range d.Ops {
		switch op.Kind {
		case Delete:
			op.Kind = Insert
		case Insert:
			op.Kind = Delete
		case AttrDelete:
			op.Kind = AttrInsert
			op.OldValue, op.NewValue = op.NewValue, op.OldValue
		case AttrInsert:
			op.Kind = AttrDelete
			op.OldValue, op.NewValue = op.NewValue, op.OldValue
		case AttrUpdate, Rename:
			op.OldValue, op.NewValue = op.NewValue, op.OldValue
		}
		r.Ops[i] = op
	}
	return r
}
