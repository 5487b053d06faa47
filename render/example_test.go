package render_test

import (
	"fmt"
	"os"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/treediff"
)

// Text lists the changes between two versions of a page, one a line.
func ExampleText() {
	old, _ := markup.ParseHTMLBytes([]byte(`<html><body><p>Open on Sunday</p><ul><li>Tea</li></ul></body></html>`), nil)
	cur, _ := markup.ParseHTMLBytes([]byte(`<html><body><p>Open on Monday</p><ul><li>Tea</li><li>Coffee and cake</li></ul></body></html>`), nil)
	old.AssignXIDs()
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := render.Text(os.Stdout, old, d); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ~ /html[1]/body[1]/p[1]/text()[1]: Open on Sunday → Open on Monday
	// + /html[1]/body[1]/ul[1]/li[2]: Coffee and cake
}

// Inline shows the new version with the changes marked in place.
func ExampleInline() {
	old, _ := markup.ParseHTMLBytes([]byte(`<html><body><p>Open on Sunday</p><ul><li>Tea</li></ul></body></html>`), nil)
	cur, _ := markup.ParseHTMLBytes([]byte(`<html><body><p>Open on Sunday</p><ul><li>Coffee and cake</li></ul></body></html>`), nil)
	old.AssignXIDs()
	d, _ := treediff.Diff(old, cur, nil)
	render.Inline(os.Stdout, old, d)
	// Output:
	// <!DOCTYPE html><html><head></head><body><p>Open on Sunday</p><ul><li><del data-vigil="upd-old">Tea</del><ins data-vigil="upd">Coffee and cake</ins></li></ul></body></html>
}
