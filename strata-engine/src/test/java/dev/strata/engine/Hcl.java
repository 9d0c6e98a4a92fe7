package dev.strata.engine;

/** Configuration snippets the case tables share, so that each row shows only what differs. */
final class Hcl {
    private Hcl() {}

    /** A {@code moved} block. */
    static String moved(String from, String to) {
        return "moved {\n  from = " + from + "\n  to   = " + to + "\n}\n";
    }

    /** {@code fake_thing.a} with a value, a zone (which cannot change in place) and a lifecycle block's body. */
    static String thingA(String value, String zone, String lifecycle) {
        return "resource \"fake_thing\" \"a\" {\n  value = \"" + value + "\"\n  zone  = \"" + zone + "\"\n"
                + "  lifecycle {\n    " + lifecycle + "\n  }\n}\n";
    }

    /** A {@code removed} block with its {@code destroy} setting. */
    static String removed(String from, boolean destroy) {
        return "removed {\n  from = " + from + "\n  lifecycle {\n    destroy = " + destroy + "\n  }\n}\n";
    }

    /** An {@code import} block. */
    static String importBlock(String to, String id) {
        return "import {\n  to = " + to + "\n  id = \"" + id + "\"\n}\n";
    }
}
