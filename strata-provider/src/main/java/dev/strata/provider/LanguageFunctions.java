package dev.strata.provider;

import dev.strata.lang.funcs.Function;
import dev.strata.lang.funcs.FunctionError;
import dev.strata.lang.funcs.Param;
import java.util.Objects;

/**
 * Turns a {@link ProviderFunction} into a function of the expression language, so that the
 * evaluator treats it as Terraform treats provider functions: arguments converted to the declared
 * types, a null or unknown argument handled before the provider is asked (unless the parameter
 * allows it), sensitive marks of the arguments moved onto the result, and a failure reported as
 * "Error in function call" or, when the provider names the argument at fault, "Invalid function
 * argument" at that argument.
 */
public final class LanguageFunctions {
    private LanguageFunctions() {}

    /**
     * The function {@code f} of {@code provider} as a configuration calls it: {@code calledAs} is the
     * full name, {@code provider::LOCALNAME::FUNC}, which error messages quote.
     */
    public static Function of(String calledAs, ProviderFunction f, Provider provider) {
        Objects.requireNonNull(provider, "provider");
        Function.Builder b = Function.builder(calledAs);
        for (int i = 0; i < f.parameters().size(); i++) {
            b.param(param(f.parameters().get(i), i));
        }
        f.variadicParameter().ifPresent(p -> b.varParam(param(p, f.parameters().size())));
        b.returns(f.returnType());
        b.impl((args, rt) -> {
            Provider.CallFunctionResponse r = provider.callFunction(new Provider.CallFunctionRequest(f.name(), args));
            if (r.error() != null) {
                // A provider's message may quote an argument: it is withheld when an argument was sensitive.
                throw r.errorArgument().isPresent() && r.errorArgument().getAsInt() < args.size()
                        ? FunctionError.argRevealing(r.errorArgument().getAsInt(), r.error())
                        : FunctionError.callRevealing(r.error());
            }
            return r.result();
        });
        return b.build();
    }

    private static Param param(ProviderFunction.Parameter p, int index) {
        // A parameter needs a name for messages (and a distinct one); a provider may leave it empty.
        Param out = Param.of(p.name().isEmpty() ? "arg" + index : p.name(), p.type());
        if (p.allowNull()) {
            out = out.allowingNull();
        }
        if (p.allowUnknown()) {
            out = out.allowingUnknown();
        }
        return out;
    }
}
