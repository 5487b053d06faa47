package markup_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/vigil-web/vigil/markup"
)

func ExampleParseXML() {
	in := `<?xml version="1.0"?>
<catalog>
  <product id="p1">
    <name>  Digital   camera </name>
  </product>
</catalog>`
	d, err := markup.ParseXML(strings.NewReader(in), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	product := d.Root.Children[0]
	id, _ := product.Attr("id")
	fmt.Printf("%s %s: %q\n", product.Name, id, product.Children[0].Text())
	// Output: product p1: "Digital camera"
}

func ExampleParseXML_error() {
	_, err := markup.ParseXML(strings.NewReader("<a>\n  <b></c>\n</a>"), nil)
	fmt.Println(err)
	// Output: line 2, column 6: end tag </c> does not match the start tag <b> at line 2, column 3: expected </b>
}

func ExampleParse() {
	for _, in := range []string{`<rss version="2.0"><channel/></rss>`, `<!DOCTYPE html><p>Hello`} {
		d, format, err := markup.Parse(strings.NewReader(in), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(format, d.Root.Name)
	}
	// Output:
	// xml rss
	// html html
}

func ExampleWriteXML() {
	d, err := markup.ParseXML(strings.NewReader(`<a x="1"><b>1 &lt; 2</b><c/></a>`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	markup.WriteXML(os.Stdout, d, &markup.WriteOptions{Indent: "  "})
	// Output:
	// <a x="1">
	//   <b>1 &lt; 2</b>
	//   <c/>
	// </a>
}

func ExampleWriteHTML() {
	d, err := markup.ParseHTML(strings.NewReader("<title>T</title><p>a<br>b"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	markup.WriteHTML(os.Stdout, d, nil)
	// Output: <html><head><title>T</title></head><body><p>a<br>b</p></body></html>
}
