package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The dependency lock file, {@code .terraform.lock.hcl}: per provider the selected version, the
 * version constraints it was selected under, and the package hashes that later installs must
 * match. {@link #render()} writes it byte for byte as {@code terraform init} does.
 */
public record LockFile(SortedMap<Provider, Entry> providers) {
    public static final String FILENAME = ".terraform.lock.hcl";

    public LockFile {
        providers = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(providers));
    }

    /**
     * @param constraints the constraint string as Terraform normalises it, empty when none
     * @param hashes sorted and without duplicates, as Terraform keeps them
     */
    public record Entry(Provider address, String version, String constraints, List<String> hashes) {
        public Entry {
            hashes = List.copyOf(new TreeSet<>(hashes));
        }

        /** Whether a package with these hashes is the one locked (any recorded hash matching is enough). */
        public boolean matches(String hash) {
            return hashes.contains(hash);
        }
    }

    public static LockFile empty() {
        return new LockFile(new TreeMap<>());
    }

    public LockFile with(Entry e) {
        TreeMap<Provider, Entry> m = new TreeMap<>(providers);
        m.put(e.address(), e);
        return new LockFile(m);
    }

    public Optional<Entry> entry(Provider a) {
        return Optional.ofNullable(providers.get(a));
    }

    private static final BodySchema FILE =
            new BodySchema(List.of(), List.of(BlockHeaderSchema.of("provider", "source_addr")));
    private static final BodySchema PROVIDER = new BodySchema(
            List.of(
                    AttributeSchema.required("version"),
                    AttributeSchema.optional("constraints"),
                    AttributeSchema.optional("hashes")),
            List.of());

    public static Result<LockFile> parse(byte[] src, String filename) {
        Result<HclFile> file = NativeSyntax.parseConfig(src, filename);
        Diagnostics.Builder diags = Diagnostics.builder().addAll(file.diagnostics());
        if (file.value() == null) {
            return Result.of(empty(), diags.build());
        }
        Result<BodyContent> content = file.value().body().content(FILE);
        diags.addAll(content.diagnostics());
        Evaluator eval = ConstantArguments.evaluator();
        TreeMap<Provider, Entry> entries = new TreeMap<>();
        for (Block b : content.value().blocksOfType("provider")) {
            String source = b.labels().get(0);
            Optional<Provider> addr = Provider.lookup(source);
            if (addr.isEmpty() || source.split("/").length != 3) {
                diags.add(Diagnostic.error(
                        "Invalid provider source address",
                        "The lock file must name providers by their full source address, hostname/namespace/type; \""
                                + source + "\" is not one.",
                        b.labelRanges().get(0)));
                continue;
            }
            if (entries.containsKey(addr.get())) {
                diags.add(Diagnostic.error(
                        "Duplicate provider lock",
                        "This lock file already has an entry for " + addr.get() + ".",
                        b.labelRanges().get(0)));
                continue;
            }
            Result<BodyContent> pc = b.body().content(PROVIDER);
            diags.addAll(pc.diagnostics());
            // A missing version was reported by content(); the other arguments are still checked.
            Attribute version = pc.value().attributes().get("version");
            String v = version == null ? null : ConstantArguments.string(eval, version, diags);
            Attribute ca = pc.value().attributes().get("constraints");
            String constraints = ca == null ? "" : ConstantArguments.string(eval, ca, diags);
            List<String> hashes = new ArrayList<>();
            Attribute ha = pc.value().attributes().get("hashes");
            if (ha != null) {
                Result<Value> hv = eval.evaluate(ha.expr());
                diags.addAll(hv.diagnostics());
                Value list = hv.value();
                if (list != null && list.isKnownAndNotNull() && list.isIterable()) {
                    for (Value h : list.elements()) {
                        if (h.type() == PrimitiveType.STRING && h.isKnownAndNotNull()) {
                            hashes.add(h.asString());
                        } else {
                            diags.add(Diagnostic.error(
                                    "Invalid provider hash",
                                    "Each hash must be a string.",
                                    ha.expr().range()));
                        }
                    }
                } else if (!hv.diagnostics().hasErrors()) {
                    diags.add(Diagnostic.error(
                            "Invalid provider hash set",
                            "The hashes must be a list of strings.",
                            ha.expr().range()));
                }
            }
            if (v != null) {
                entries.put(addr.get(), new Entry(addr.get(), v, constraints == null ? "" : constraints, hashes));
            }
        }
        return Result.of(new LockFile(entries), diags.build());
    }

    /** The file as Terraform writes it: fixed header, providers sorted by address, aligned single-line arguments. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("# This file is maintained automatically by \"terraform init\".\n");
        out.append("# Manual edits may be lost in future updates.\n");
        for (Entry e : providers.values()) {
            out.append('\n');
            out.append("provider ").append(quote(e.address().toString())).append(" {\n");
            if (e.constraints().isEmpty()) {
                out.append("  version = ").append(quote(e.version())).append('\n');
            } else {
                out.append("  version     = ").append(quote(e.version())).append('\n');
                out.append("  constraints = ").append(quote(e.constraints())).append('\n');
            }
            if (!e.hashes().isEmpty()) {
                out.append("  hashes = [\n");
                for (String h : e.hashes()) {
                    out.append("    ").append(quote(h)).append(",\n");
                }
                out.append("  ]\n");
            }
            out.append("}\n");
        }
        return out.toString();
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
