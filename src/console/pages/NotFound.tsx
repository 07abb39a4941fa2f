import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";

export function NotFound() {
  return (
    <div className="hero min-h-[50vh]" data-testid="not-found">
      <div className="hero-content text-center flex-col">
        <h1 className="text-5xl font-bold">404</h1>
        <p>
          <Trans>The page does not exist, please check your browser address.</Trans>
        </p>
        <Link href="/" className="btn btn-primary">
          <Trans>Back to home</Trans>
        </Link>
      </div>
    </div>
  );
}
