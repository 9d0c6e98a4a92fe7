package dev.strata.config;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.json.JsonBody;
import dev.strata.hcl.syntax.SyntaxBody;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds every expression in a body that has not been decoded against a schema yet (a resource's
 * provider-specific arguments), so static checks can see its references before the provider schema
 * is known. {@code dynamic} blocks bind their iterator name inside {@code content}.
 */
final class BodyWalk {
    private BodyWalk() {}

    /** An expression with the names a surrounding {@code dynamic} block binds. */
    record Site(Expression expr, Set<String> bound) {}

    /**
     * Every expression of the body as Terraform sees it once override files are merged: a base argument or
     * block type that an override sets is gone, so its references are neither checked nor dependencies.
     */
    static void expressions(Body body, Set<String> bound, java.util.function.Consumer<Site> out) {
        walk(body, Set.of(), bound, name -> true, out);
    }

    /**
     * The expressions of the arguments and nested blocks that make up the object a body describes once
     * override files are merged (a base argument or block type that an override sets contributes
     * nothing, as Terraform sees only the merged body), of those {@code argument} accepts: an argument
     * by its name, a nested block by its type, a {@code dynamic} block by the type it generates. JSON
     * properties are taken whole, each as one argument of its name, which is what a schema would make
     * of them too (a block's contents are its property's value). Without a schema an override
     * replaces by name, whether the name is an argument or a block type.
     */
    static void arguments(
            Body body, java.util.function.Predicate<String> argument, java.util.function.Consumer<Site> out) {
        walk(body, Set.of(), Set.of(), argument, out);
    }

    /**
     * The top-level arguments and blocks of {@code body} that {@code argument} accepts and no override has
     * {@code replaced}, and everything inside those blocks.
     */
    private static void walk(
            Body body,
            Set<String> replaced,
            Set<String> bound,
            java.util.function.Predicate<String> argument,
            java.util.function.Consumer<Site> out) {
        switch (body) {
            case SyntaxBody sb -> {
                for (Attribute a : sb.attributes()) {
                    if (!sb.hidden().contains(a.name()) && !replaced.contains(a.name()) && argument.test(a.name())) {
                        out.accept(new Site(a.expr(), bound));
                    }
                }
                for (Block b : sb.blocks()) {
                    if (sb.hidden().contains(b.type()) || replaced.contains(b.type())) {
                        continue;
                    }
                    if (b.type().equals("dynamic") && b.body() instanceof SyntaxBody db) {
                        if (argument.test(generated(b))) {
                            dynamic(b, db, bound, out);
                        }
                    } else if (argument.test(b.type())) {
                        expressions(b.body(), bound, out);
                    }
                }
            }
            case MergedBody mb -> {
                Set<String> hidden = new HashSet<>(replaced);
                hidden.addAll(names(mb.override()));
                walk(mb.base(), hidden, bound, argument, out);
                walk(mb.override(), replaced, bound, argument, out);
            }
            case JsonBody jb -> {
                // Without a schema, only "dynamic" is known to be a block; its content is walked like
                // the native form, everything else is an argument whose strings may hold templates.
                Result<Body.PartialContent> pc = jb.partialContent(DYNAMIC);
                if (!replaced.contains("dynamic")) {
                    for (Block d : pc.value().content().blocks()) {
                        if (argument.test(generated(d))) {
                            jsonDynamic(d, bound, out);
                        }
                    }
                }
                for (Attribute a : pc.value().remain().justAttributes().value().values()) {
                    if (!replaced.contains(a.name()) && argument.test(a.name())) {
                        out.accept(new Site(a.expr(), bound));
                    }
                }
            }
            default -> {
                for (Attribute a : body.justAttributes().value().values()) {
                    if (!replaced.contains(a.name()) && argument.test(a.name())) {
                        out.accept(new Site(a.expr(), bound));
                    }
                }
            }
        }
    }

    /** The block type a {@code dynamic} block generates ({@code "dynamic"} when it names none). */
    private static String generated(Block dynamic) {
        return dynamic.labels().isEmpty() ? "dynamic" : dynamic.labels().getFirst();
    }

    /**
     * Whether {@code name} is written as nested blocks in the body overrides leave (a block of that type
     * or a {@code dynamic} block generating it). A JSON property counts only under {@code "dynamic"}:
     * without the schema the rest may be arguments.
     */
    static boolean writtenAsBlocks(Body body, String name) {
        return writtenAsBlocks(body, Set.of(), name);
    }

    private static boolean writtenAsBlocks(Body body, Set<String> replaced, String name) {
        return switch (body) {
            case SyntaxBody sb ->
                sb.blocks().stream()
                        .filter(b -> !sb.hidden().contains(b.type()) && !replaced.contains(b.type()))
                        .anyMatch(b -> b.type().equals(name)
                                || (b.type().equals("dynamic")
                                        && !b.labels().isEmpty()
                                        && b.labels().getFirst().equals(name)));
            case MergedBody mb -> {
                Set<String> hidden = new HashSet<>(replaced);
                hidden.addAll(names(mb.override()));
                yield writtenAsBlocks(mb.override(), replaced, name) || writtenAsBlocks(mb.base(), hidden, name);
            }
            case JsonBody jb ->
                !replaced.contains("dynamic")
                        && jb.partialContent(DYNAMIC).value().content().blocks().stream()
                                .anyMatch(d -> !d.labels().isEmpty()
                                        && d.labels().getFirst().equals(name));
            default -> false;
        };
    }

    /** The names a body sets at its top level: arguments and block types ({@code dynamic} for dynamic blocks). */
    private static Set<String> names(Body body) {
        Set<String> out = new HashSet<>();
        switch (body) {
            case SyntaxBody sb -> {
                sb.attributes().stream()
                        .map(Attribute::name)
                        .filter(n -> !sb.hidden().contains(n))
                        .forEach(out::add);
                sb.blocks().stream()
                        .map(Block::type)
                        .filter(n -> !sb.hidden().contains(n))
                        .forEach(out::add);
            }
            case MergedBody mb -> {
                out.addAll(names(mb.base()));
                out.addAll(names(mb.override()));
            }
            default -> out.addAll(body.justAttributes().value().keySet());
        }
        return out;
    }

    private static final dev.strata.hcl.BodySchema DYNAMIC =
            new dev.strata.hcl.BodySchema(List.of(), List.of(dev.strata.hcl.BlockHeaderSchema.of("dynamic", "type")));

    private static final dev.strata.hcl.BodySchema DYNAMIC_BODY = new dev.strata.hcl.BodySchema(
            List.of(
                    dev.strata.hcl.AttributeSchema.optional("for_each"),
                    dev.strata.hcl.AttributeSchema.optional("iterator"),
                    dev.strata.hcl.AttributeSchema.optional("labels")),
            List.of(dev.strata.hcl.BlockHeaderSchema.of("content")));

    private static void jsonDynamic(Block b, Set<String> bound, java.util.function.Consumer<Site> out) {
        Result<Body.PartialContent> pc = b.body().partialContent(DYNAMIC_BODY);
        Map<String, Attribute> attrs = pc.value().content().attributes();
        String iterator = b.labels().isEmpty() ? "dynamic" : b.labels().getFirst();
        Attribute it = attrs.get("iterator");
        if (it != null) {
            iterator = it.expr().asKeyword().orElse(iterator);
        }
        Set<String> inner = new HashSet<>(bound);
        inner.add(iterator);
        if (attrs.containsKey("for_each")) {
            out.accept(new Site(attrs.get("for_each").expr(), bound));
        }
        if (attrs.containsKey("labels")) {
            out.accept(new Site(attrs.get("labels").expr(), Set.copyOf(inner)));
        }
        for (Block c : pc.value().content().blocks()) {
            expressions(c.body(), Set.copyOf(inner), out);
        }
    }

    private static void dynamic(Block b, SyntaxBody db, Set<String> bound, java.util.function.Consumer<Site> out) {
        String iterator = b.labels().isEmpty() ? "dynamic" : b.labels().getFirst();
        for (Attribute a : db.attributes()) {
            if (a.name().equals("iterator")) {
                iterator = a.expr().asKeyword().orElse(iterator);
            }
        }
        Set<String> inner = new HashSet<>(bound);
        inner.add(iterator);
        for (Attribute a : db.attributes()) {
            switch (a.name()) {
                case "iterator" -> {}
                case "for_each" -> out.accept(new Site(a.expr(), bound));
                default -> out.accept(new Site(a.expr(), inner));
            }
        }
        for (Block c : db.blocks()) {
            expressions(c.body(), Set.copyOf(inner), out);
        }
    }
}
