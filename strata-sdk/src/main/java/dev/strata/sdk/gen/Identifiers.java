package dev.strata.sdk.gen;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Terraform names made into Java identifiers: camel case, never a keyword, never starting with a digit. */
final class Identifiers {
    private Identifiers() {}

    // Keywords, literals and the restricted identifiers a declaration or an unqualified call may not use.
    private static final Set<String> RESERVED = Set.of(
            "abstract",
            "assert",
            "boolean",
            "break",
            "byte",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extends",
            "final",
            "finally",
            "float",
            "for",
            "goto",
            "if",
            "implements",
            "import",
            "instanceof",
            "int",
            "interface",
            "long",
            "native",
            "new",
            "package",
            "private",
            "protected",
            "public",
            "return",
            "short",
            "static",
            "strictfp",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "try",
            "void",
            "volatile",
            "while",
            "true",
            "false",
            "null",
            "_",
            "var",
            "yield",
            "record",
            "sealed",
            "permits",
            "when",
            "module",
            "open",
            "exports",
            "requires",
            "opens",
            "to",
            "uses",
            "provides",
            "with",
            "transitive");

    /** {@code cidr_block} → {@code cidrBlock}; {@code default} → {@code default_}; {@code 6to4} → {@code _6to4}. */
    static String method(String name) {
        List<String> w = words(name);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < w.size(); i++) {
            String word = w.get(i);
            b.append(i == 0 ? word.toLowerCase(Locale.ROOT) : capitalize(word));
        }
        return safe(b.isEmpty() ? "value" : b.toString());
    }

    /** {@code aws_s3_bucket} → {@code AwsS3Bucket}. */
    static String type(String name) {
        StringBuilder b = new StringBuilder();
        for (String word : words(name)) {
            b.append(capitalize(word));
        }
        return safe(b.isEmpty() ? "Value" : b.toString());
    }

    /** A package segment: lower case, {@code default} → {@code default_}. */
    static String packageSegment(String name) {
        StringBuilder b = new StringBuilder();
        for (String word : words(name)) {
            b.append(b.isEmpty() ? "" : "_").append(word.toLowerCase(Locale.ROOT));
        }
        return safe(b.isEmpty() ? "p" : b.toString());
    }

    /** The name itself where it is a plain identifier (what a camel-case collision falls back to). */
    static String raw(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(c < 128 && Character.isLetterOrDigit(c) ? c : '_');
        }
        return safe(b.isEmpty() ? "value" : b.toString());
    }

    /** True for a dotted Java package name whose segments are identifiers and no keywords. */
    static boolean isPackageName(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (String seg : s.split("\\.", -1)) {
            if (seg.isEmpty()
                    || RESERVED.contains(seg)
                    || !Character.isJavaIdentifierStart(seg.charAt(0))
                    || !seg.chars().allMatch(Character::isJavaIdentifierPart)) {
                return false;
            }
        }
        return true;
    }

    private static String safe(String id) {
        String s = Character.isDigit(id.charAt(0)) ? "_" + id : id;
        return RESERVED.contains(s) ? s + "_" : s;
    }

    // Splits on anything that is not an ASCII letter or digit; the pieces keep their case.
    private static List<String> words(String name) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 128 && Character.isLetterOrDigit(c)) {
                cur.append(c);
            } else if (!cur.isEmpty()) {
                out.add(cur.toString());
                cur.setLength(0);
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out;
    }

    private static String capitalize(String w) {
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    /**
     * Hands out unique names in one scope. A name taken (by an earlier claim or by the generated
     * class's own members) falls back to the raw Terraform name, then gets underscores appended.
     * Claims happen in sorted order, so the outcome is deterministic.
     */
    static final class Scope {
        private final Set<String> taken = new HashSet<>();

        Scope(Set<String> reserved) {
            taken.addAll(reserved);
        }

        /** {@code base}, else {@code base2}, {@code base3}, ...: the first one free. */
        String claimNumbered(String base) {
            String n = base;
            for (int i = 2; taken.contains(n); i++) {
                n = base + i;
            }
            taken.add(n);
            return n;
        }

        String claim(String preferred, String fallback) {
            String n = preferred;
            if (taken.contains(n)) {
                n = fallback;
            }
            while (taken.contains(n)) {
                n = n + "_";
            }
            taken.add(n);
            return n;
        }
    }
}
