package dev.strata.providers.random;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code random_pet}: a name of {@code length} words from golang-petname's word lists, as
 * HashiCorp's provider makes them: one word is a name, two are adjective and name, more put
 * adverbs first; {@code prefix} comes first, all joined with {@code separator}.
 */
final class RandomPet implements ManagedResource {

    private static final List<String> ADJECTIVES = words("adjectives");
    private static final List<String> ADVERBS = words("adverbs");
    private static final List<String> NAMES = words("names");

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(Common.KEEPERS, Common.keepers())
            .attribute(
                    "length",
                    Attribute.optionalComputed(Type.NUMBER)
                            .withDescription("The length (in words) of the pet name. Defaults to 2"))
            .attribute("prefix", Attribute.optional(Type.STRING).withDescription("A string to prefix the name with."))
            .attribute(
                    "separator",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("The character to separate words in the pet name. Defaults to \"-\""))
            .attribute("id", Attribute.computed(Type.STRING).withDescription("The random pet name."))
            .build());

    private final SecureRandom random;

    RandomPet(SecureRandom random) {
        this.random = random;
    }

    private static List<String> words(String list) {
        String name = "/dev/strata/providers/random/petname-" + list + ".txt";
        try (InputStream in = RandomPet.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the build");
            }
            List<String> out = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(line.strip());
                }
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String typeName() {
        return "random_pet";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(Common.KEEPERS, "length", "prefix", "separator");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of("length", Value.number(2), "separator", Value.string("-"));
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value len = Attrs.get(config, "length").unmarkDeep();
        if (len.isKnownAndNotNull() && len.asNumber().signum() < 0) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute length value must be at least 0, got: " + len.numberText(),
                    AttributePath.of("length"));
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        int length = Attrs.number(planned, "length").intValueExact();
        String sep = Attrs.string(planned, "separator");
        String prefix = Attrs.string(planned, "prefix");
        String pet = generate(length, sep).toLowerCase(Locale.ROOT);
        if (prefix != null && !prefix.isEmpty()) {
            pet = prefix + sep + pet;
        }
        return Attrs.with(planned, "id", Value.string(pet));
    }

    private String generate(int words, String sep) {
        return switch (words) {
            case 0 -> "";
            case 1 -> pick(NAMES);
            case 2 -> pick(ADJECTIVES) + sep + pick(NAMES);
            default -> {
                List<String> parts = new ArrayList<>();
                for (int i = 0; i < words - 2; i++) {
                    parts.add(pick(ADVERBS));
                }
                parts.add(pick(ADJECTIVES));
                parts.add(pick(NAMES));
                yield String.join(sep, parts);
            }
        };
    }

    private String pick(List<String> list) {
        return list.get(random.nextInt(list.size()));
    }

    static boolean isAdjective(String w) {
        return ADJECTIVES.contains(w);
    }

    static boolean isAdverb(String w) {
        return ADVERBS.contains(w);
    }

    static boolean isName(String w) {
        return NAMES.contains(w);
    }
}
