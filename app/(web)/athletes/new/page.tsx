import type { Metadata } from "next";
import { AthleteForm } from "../athlete-form";

export const metadata: Metadata = { title: "Add athlete" };

export default function NewAthletePage() {
  return (
    <>
      <h1>Add athlete</h1>
      <AthleteForm />
    </>
  );
}
