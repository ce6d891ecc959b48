import type { Metadata } from "next";
import type { ReactNode } from "react";
import { HydrationMarker } from "./_components/hydration-marker";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Paddle Results", template: "%s · Paddle Results" },
  description: "Canoe and kayak sprint sessions: strokes, splits and reports from your sensor unit.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <HydrationMarker />
      </body>
    </html>
  );
}
