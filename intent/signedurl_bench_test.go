package intent

import "testing"

func BenchmarkUnsignedURLPlain(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		unsignedURL("https://shop.example/product?id=123&color=red&size=42&utm_source=x")
	}
}
