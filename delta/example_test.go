package delta_test

import (
	"fmt"
	"os"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// price builds <product><price>v</price></product> with XIDs 1-3.
func price(v string) *tree.Document {
	d := &tree.Document{}
	d.Root = d.NewElement("product")
	p := d.NewElement("price")
	p.AppendChild(d.NewText(v))
	d.Root.AppendChild(p)
	d.AssignXIDs()
	return d
}

func Example() {
	v1, v2 := price("$799"), price("$699")
	d, err := delta.Build(v1, v2)
	if err != nil {
		panic(err)
	}
	if err := delta.EncodeXML(os.Stdout, d); err != nil {
		panic(err)
	}
	got, err := delta.Apply(v1, d)
	if err != nil {
		panic(err)
	}
	fmt.Println(got.Root.Text())
	back, err := delta.Apply(got, delta.Invert(d))
	if err != nil {
		panic(err)
	}
	fmt.Println(back.Root.Text())
	// Output:
	// <unit_delta>
	// <t fromXidMap="(1-3|4)" toXidMap="(1-3|4)">
	// <d par="2" pos="1" xm="(1)" update="yes">$799</d>
	// <i par="2" pos="1" xm="(1)" update="yes">$699</i>
	// </t>
	// </unit_delta>
	// $699
	// $799
}

func ExampleCompose() {
	v1, v2, v3 := price("$799"), price("$699"), price("$799")
	d1, _ := delta.Build(v1, v2)
	d2, _ := delta.Build(v2, v3)
	d, err := delta.Compose(d1, d2)
	fmt.Println(len(d.Ops), err)
	// Output: 0 <nil>
}

func ExampleApply_refused() {
	v1 := price("$799")
	d := &delta.Delta{Ops: []delta.Op{{Kind: delta.AttrUpdate, Node: 3, Name: "currency", OldValue: "EUR", NewValue: "USD"}}}
	_, err := delta.Apply(v1, d)
	fmt.Println(err)
	// Output: operation 1 (au xid=3 a=currency ov="EUR" nv="USD"): element XID 3 has no attribute currency
}
