package dev.strata.sdk.gen;

import dev.strata.provider.Provider;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The schemas of every provider built in to Strata, as the generator's input. */
final class BuiltinBindings {
    private BuiltinBindings() {}

    static List<ProviderBinding> all() {
        List<ProviderBinding> out = new ArrayList<>();
        for (ProviderFactory f :
                ProviderRegistry.load(BuiltinBindings.class.getClassLoader()).available()) {
            try (Provider p = f.create()) {
                out.add(new ProviderBinding(f.address(), f.version().toString(), p.schema()));
            }
        }
        out.sort(Comparator.comparing(ProviderBinding::address));
        return out;
    }
}
