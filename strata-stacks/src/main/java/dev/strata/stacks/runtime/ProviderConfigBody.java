package dev.strata.stacks.runtime;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.provider.NestedBlock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A provider's {@code config} block with nested blocks, decoded against the provider's configuration
 * schema: arguments and block types the schema does not have are errors at their range (as Terraform
 * reports them), each nested block becomes an object, gathered as its nesting mode says (one object,
 * a list of them, or a map by label). Argument values are converted to the schema's types later, when
 * the engine configures the provider.
 */
final class ProviderConfigBody {
    private ProviderConfigBody() {}

    static Result<Value> decode(Body body, dev.strata.provider.Block schema, Function<Attribute, Value> eval) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Value v = decode(body, schema, eval, diags);
        return Result.of(v, diags.build());
    }

    private static Value decode(
            Body body, dev.strata.provider.Block schema, Function<Attribute, Value> eval, Diagnostics.Builder diags) {
        List<AttributeSchema> attrs = new ArrayList<>();
        schema.attributes().forEach((name, a) -> {
            if (!a.computedOnly()) {
                attrs.add(AttributeSchema.optional(name));
            }
        });
        Result<BodyContent> content = body.content(new BodySchema(attrs, schema.blockHeaders()));
        diags.addAll(content.diagnostics());
        Map<String, Value> out = new LinkedHashMap<>();
        BodyContent c = content.value();
        if (c == null) {
            return Value.DYNAMIC_UNKNOWN;
        }
        c.attributes().forEach((name, a) -> out.put(name, eval.apply(a)));
        Map<String, List<Block>> byType = new TreeMap<>();
        for (Block b : c.blocks()) {
            byType.computeIfAbsent(b.type(), k -> new ArrayList<>()).add(b);
        }
        byType.forEach((name, bs) -> {
            NestedBlock nb = schema.blockTypes().get(name);
            switch (nb.nesting()) {
                case SINGLE -> {
                    if (bs.size() > 1) {
                        diags.add(Diagnostic.error(
                                "Duplicate " + name + " block",
                                "Only one \"" + name + "\" block is allowed. Another was defined at "
                                        + bs.getFirst().defRange() + ".",
                                bs.get(1).defRange()));
                    }
                    out.put(name, decode(bs.getFirst().body(), nb.block(), eval, diags));
                }
                case LIST, SET -> {
                    List<Value> items = new ArrayList<>();
                    bs.forEach(b -> items.add(decode(b.body(), nb.block(), eval, diags)));
                    out.put(name, Value.tuple(items));
                }
                case MAP -> {
                    Map<String, Value> items = new TreeMap<>();
                    for (Block b : bs) {
                        String key = b.labels().getFirst();
                        if (items.containsKey(key)) {
                            diags.add(Diagnostic.error(
                                    "Duplicate " + name + " block",
                                    "A \"" + name + "\" block with the key \"" + key + "\" was already defined.",
                                    b.labelRanges().getFirst()));
                        }
                        items.put(key, decode(b.body(), nb.block(), eval, diags));
                    }
                    out.put(name, Value.object(items));
                }
            }
        });
        return Value.object(out);
    }
}
