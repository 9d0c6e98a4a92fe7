package dev.strata.policy;

import dev.strata.config.Constants;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The policies of one run: every {@code policy} block of the {@code *.policy.hcl} and
 * {@code *.policy.json} files directly in the given directories, in file and then block order,
 * indexed by resource type so that a large plan checks each change against its own policies only.
 */
public final class PolicySet {
    private static final BodySchema FILE = new BodySchema(
            List.of(), List.of(BlockHeaderSchema.of("policy", "name"), BlockHeaderSchema.of("policy_set", "name")));
    private static final BodySchema POLICY_SET = new BodySchema(List.of(AttributeSchema.required("source")), List.of());
    private static final BodySchema POLICY = new BodySchema(
            List.of(
                    AttributeSchema.optional("description"),
                    AttributeSchema.optional("enforcement"),
                    AttributeSchema.optional("resource_types"),
                    AttributeSchema.optional("actions"),
                    AttributeSchema.required("condition"),
                    AttributeSchema.required("error_message")),
            List.of());
    /** The names a policy's expressions may refer to. */
    static final List<String> ROOTS = List.of("change", "var");

    private final List<Policy> policies;
    private final Map<String, List<Policy>> byType;
    private final List<Policy> everyType;
    private final Map<String, byte[]> sources;

    private PolicySet(List<Policy> policies, Map<String, byte[]> sources) {
        this.policies = List.copyOf(policies);
        this.sources = Collections.unmodifiableMap(new TreeMap<>(sources));
        Map<String, List<Policy>> index = new HashMap<>();
        List<Policy> all = new ArrayList<>();
        for (Policy p : policies) {
            if (p.resourceTypes().isEmpty()) {
                all.add(p);
            }
            for (String t : p.resourceTypes()) {
                index.computeIfAbsent(t, k -> new ArrayList<>()).add(p);
            }
        }
        this.byType = index;
        this.everyType = List.copyOf(all);
    }

    public static final PolicySet EMPTY = new PolicySet(List.of(), Map.of());

    /**
     * Loads the policies of {@code dirs}, and of the directories their {@code policy_set} blocks name
     * ({@code source}, relative to the file), each directory once; file names in diagnostics are
     * relative to {@code base} where they lie under it. A missing directory, an unreadable file, a
     * syntax error or an invalid policy is an error.
     */
    public static Result<PolicySet> load(List<Path> dirs, Path base) {
        Diagnostics.Builder diags = Diagnostics.builder();
        List<Policy> policies = new ArrayList<>();
        Map<String, byte[]> sources = new LinkedHashMap<>();
        Map<String, Policy> byName = new HashMap<>();
        java.util.ArrayDeque<Path> pending = new java.util.ArrayDeque<>(dirs);
        java.util.Set<Path> seen = new java.util.HashSet<>();
        while (!pending.isEmpty()) {
            Path dir = pending.removeFirst();
            if (!seen.add(dir.toAbsolutePath().normalize())) {
                continue;
            }
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(PolicySet::isPolicyFile).sorted().toList();
            } catch (NoSuchFileException | NotDirectoryException e) {
                diags.error(
                        "Policy directory not found",
                        "The policy directory " + display(dir, base) + " does not exist or is not a directory. "
                                + "Check the -policy option (or STRATA_POLICY_PATH).",
                        null);
                continue;
            } catch (IOException e) {
                diags.error(
                        "Failed to read policy directory",
                        "The policy directory could not be listed: " + IoProblems.describe(display(dir, base), e) + ".",
                        null);
                continue;
            }
            if (files.isEmpty()) {
                diags.add(Diagnostic.warning(
                        "No policy files",
                        "The policy directory " + display(dir, base)
                                + " holds no *.policy.hcl or *.policy.json files, so it adds no policies.",
                        null));
            }
            for (Path f : files) {
                String name = display(f, base);
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(f);
                } catch (IOException e) {
                    diags.error(
                            "Failed to read policy file",
                            "The file could not be read: " + IoProblems.describe(name, e) + ".",
                            null);
                    continue;
                }
                sources.put(name, bytes);
                Result<HclFile> parsed =
                        name.endsWith(".json") ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
                diags.addAll(parsed.diagnostics());
                if (parsed.value() == null) {
                    continue;
                }
                Result<BodyContent> content = parsed.value().body().content(FILE);
                diags.addAll(content.diagnostics());
                for (Block b : content.value().blocksOfType("policy_set")) {
                    Result<BodyContent> set = b.body().content(POLICY_SET);
                    diags.addAll(set.diagnostics());
                    Attribute source = set.value() == null
                            ? null
                            : set.value().attributes().get("source");
                    String dirName = source == null ? null : Constants.string(source.expr(), diags);
                    if (dirName != null) {
                        pending.addLast(
                                f.toAbsolutePath().getParent().resolve(dirName).normalize());
                    }
                }
                for (Block b : content.value().blocksOfType("policy")) {
                    Policy p = policy(b, diags);
                    if (p == null) {
                        continue;
                    }
                    Policy earlier = byName.putIfAbsent(p.name(), p);
                    if (earlier != null) {
                        diags.error(
                                "Duplicate policy",
                                "A policy named \"" + p.name() + "\" was already declared at "
                                        + earlier.declRange()
                                        + ". Policy names must be unique across all policy directories.",
                                p.declRange());
                        continue;
                    }
                    policies.add(p);
                }
            }
        }
        return Result.of(new PolicySet(policies, sources), diags.build());
    }

    static boolean isPolicyFile(Path p) {
        String n = p.getFileName().toString();
        return (n.endsWith(".policy.hcl") || n.endsWith(".policy.json")) && Files.isRegularFile(p);
    }

    private static String display(Path p, Path base) {
        Path abs = p.toAbsolutePath().normalize();
        Path b = base.toAbsolutePath().normalize();
        return abs.startsWith(b) && !abs.equals(b) ? b.relativize(abs).toString() : p.toString();
    }

    private static Policy policy(Block b, Diagnostics.Builder diags) {
        Result<BodyContent> r = b.body().content(POLICY);
        diags.addAll(r.diagnostics());
        if (r.hasErrors()) {
            return null;
        }
        BodyContent c = r.value();
        int before = diags.size();
        String name = b.labels().getFirst();
        String description = null;
        if (c.attributes().get("description") != null) {
            description = Constants.string(c.attributes().get("description").expr(), diags);
        }
        Enforcement enforcement = Enforcement.MANDATORY;
        Attribute e = c.attributes().get("enforcement");
        if (e != null) {
            String word = Constants.string(e.expr(), diags);
            if (word != null) {
                enforcement = Enforcement.ofWord(word);
                if (enforcement == null) {
                    diags.error(
                            "Invalid enforcement level",
                            "The enforcement level must be \"advisory\" (a failure is a warning) or \"mandatory\" "
                                    + "(a failure stops the plan from being applied); got \"" + word + "\".",
                            e.expr().range());
                }
            }
        }
        SortedSet<String> types = strings(c.attributes().get("resource_types"), diags);
        SortedSet<String> actions = strings(c.attributes().get("actions"), diags);
        Attribute a = c.attributes().get("actions");
        for (String action : actions) {
            if (!Policy.ACTIONS.contains(action)) {
                diags.error(
                        "Invalid policy action",
                        "\"" + action + "\" is not a change action. The actions are "
                                + String.join(", ", Policy.ACTIONS) + ".",
                        a.expr().range());
            }
        }
        Attribute condition = c.attributes().get("condition");
        Attribute message = c.attributes().get("error_message");
        for (Attribute x : List.of(condition, message)) {
            for (Traversal t : x.expr().variables()) {
                if (!ROOTS.contains(t.rootName())) {
                    diags.error(
                            "Invalid reference in policy",
                            "A policy can refer only to change (the resource change being checked: address, type, "
                                    + "name, action, before, after, ...) and var (the plan's input variables); \""
                                    + t.rootName() + "\" is neither.",
                            t.rootRange());
                }
            }
        }
        if (diags.size() > before && diags.hasErrors()) {
            return null;
        }
        return new Policy(
                name,
                description,
                enforcement == null ? Enforcement.MANDATORY : enforcement,
                types,
                actions,
                condition.expr(),
                message.expr(),
                b.defRange());
    }

    private static SortedSet<String> strings(Attribute a, Diagnostics.Builder diags) {
        SortedSet<String> out = new TreeSet<>();
        if (a == null) {
            return out;
        }
        Result<Value> v = Constants.evaluate(a.expr());
        if (v.hasErrors()) {
            diags.addAll(v.diagnostics());
            return out;
        }
        ConversionResult c = Convert.convert(v.value(), Type.list(Type.STRING));
        if (!c.isOk() || c.value().isNull() || !c.value().isWhollyKnown()) {
            diags.error(
                    "Incorrect value type",
                    "A list of strings is required here.",
                    a.expr().range());
            return out;
        }
        for (Value s : c.value().elements()) {
            if (s.isNull()) {
                diags.error(
                        "Incorrect value type",
                        "The list must not hold null.",
                        a.expr().range());
                continue;
            }
            out.add(s.asString());
        }
        return out;
    }

    public List<Policy> policies() {
        return policies;
    }

    public boolean isEmpty() {
        return policies.isEmpty();
    }

    /** Whether any policy checks changes of {@code type}: the others need not even be looked at. */
    public boolean checksType(String type) {
        return !everyType.isEmpty() || byType.containsKey(type);
    }

    /** The policies checked for changes of {@code type}, in declaration order. */
    List<Policy> forType(String type) {
        List<Policy> typed = byType.getOrDefault(type, List.of());
        if (typed.isEmpty()) {
            return everyType;
        }
        if (everyType.isEmpty()) {
            return typed;
        }
        List<Policy> out = new ArrayList<>(everyType);
        out.addAll(typed);
        out.sort(java.util.Comparator.comparingInt(policies::indexOf));
        return out;
    }

    /** The policy files' text, for rendering diagnostics with their source lines. */
    public DiagnosticRenderer.Sources sources() {
        return sources::get;
    }

    /** The policy files' names and text. */
    public Map<String, byte[]> files() {
        return sources;
    }
}
